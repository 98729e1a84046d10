import { describe, expect, it } from 'vitest';
import { documentToGraph } from '../../../renderer/canvas/documentToGraph';
import { liveDelegationEdges } from '../../../renderer/canvas/liveDelegationEdges';
import { reconcileEdges, reconcileNodes } from '../../../renderer/canvas/reconcile';
import { updateEntity } from '../../../renderer/commands/updateEntity';
import { hierarchicalCrew, sequentialCrew } from '../document/crewFixtures';

describe('reconcileNodes', () => {
  it('keeps the node objects that did not change, so memo’d nodes do not re-render', () => {
    const doc = sequentialCrew();
    const before = reconcileNodes([], documentToGraph(doc).nodes, new Set());
    const edited = updateEntity('agent:writer', { role: 'Editor' }).perform(doc);
    const after = reconcileNodes(before, documentToGraph(edited).nodes, new Set());
    const changed = after.filter((n, i) => n !== before[i]).map((n) => n.id);
    expect(changed).toEqual(['agent:writer']);
    expect(after[1]!.data).toMatchObject({ role: 'Editor' });
  });

  it('applies the selection and keeps measured sizes', () => {
    const nodes = documentToGraph(sequentialCrew()).nodes;
    const measured = reconcileNodes([], nodes, new Set()).map((n) => ({ ...n, measured: { width: 240, height: 90 } }));
    const selected = reconcileNodes(measured, nodes, new Set(['task:brief']));
    expect(selected.filter((n) => n.selected).map((n) => n.id)).toEqual(['task:brief']);
    expect(selected.find((n) => n.id === 'task:brief')?.measured).toEqual({ width: 240, height: 90 });
    expect(selected.find((n) => n.id === 'task:research')).toBe(measured.find((n) => n.id === 'task:research'));
  });

  it('a node being dragged keeps its live position when the document changes under it', () => {
    const doc = sequentialCrew();
    const nodes = reconcileNodes([], documentToGraph(doc).nodes, new Set()).map((n) =>
      n.id === 'agent:writer' ? { ...n, dragging: true, position: { x: 999, y: 999 } } : n,
    );
    const next = reconcileNodes(nodes, documentToGraph(updateEntity('agent:writer', { role: 'X' }).perform(doc)).nodes, new Set());
    expect(next.find((n) => n.id === 'agent:writer')?.position).toEqual({ x: 999, y: 999 });
  });

  it('edges keep their selection across rebuilds', () => {
    const edges = documentToGraph(sequentialCrew()).edges.map((e) => (e.id === 'assign|task:brief' ? { ...e, selected: true } : e));
    const next = reconcileEdges(edges, documentToGraph(sequentialCrew()).edges);
    expect(next.find((e) => e.id === 'assign|task:brief')?.selected).toBe(true);
  });
});

describe('liveDelegationEdges', () => {
  it('draws running delegations that have no static edge, once, between existing nodes', () => {
    const graph = documentToGraph(hierarchicalCrew());
    const ids = new Set(graph.nodes.map((n) => n.id));
    const live = liveDelegationEdges(
      [
        { from: 'manager', to: 'agent:analyst', spanId: 's1' },
        { from: 'agent:analyst', to: 'agent:copywriter', spanId: 's2' },
        { from: 'agent:analyst', to: 'agent:copywriter', spanId: 's3' },
        { from: 'agent:ghost', to: 'agent:analyst', spanId: 's4' },
      ],
      graph.edges,
      ids,
    );
    expect(live.map((e) => e.id)).toEqual(['live|agent:analyst|agent:copywriter']);
    expect(live[0]!.data).toEqual({ transient: true });
    expect(liveDelegationEdges([], graph.edges, ids)).toEqual([]);
  });
});
