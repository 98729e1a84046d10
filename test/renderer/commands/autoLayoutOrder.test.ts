import ELK from 'elkjs/lib/elk.bundled.js';
import { describe, expect, it } from 'vitest';
import { computeAutoLayout } from '../../../renderer/commands/autoLayout';
import type { CrewDraft } from '../../../renderer/commands/crewDraft';
import { orderAgents } from '../../../renderer/commands/layout/agentOrder';
import { crewLayoutGraph } from '../../../renderer/commands/layout/crewLayoutGraph';
import { dagreLayout } from '../../../renderer/commands/layout/dagreLayout';
import { elkLayout } from '../../../renderer/commands/layout/elkLayout';
import { layoutQuality } from '../../../renderer/commands/layout/layoutQuality';

// Issue 18 (D14): auto-layout kept neither the declared agent order nor edges apart.

function crew(agents: string[], assignments: string[], process: 'sequential' | 'hierarchical' = 'sequential'): CrewDraft {
  return {
    kind: 'crew',
    version: 1,
    id: 'c',
    name: 'C',
    process,
    agents: agents.map((id) => ({ id, role: id, goal: 'g' })),
    tasks: assignments.map((agentId, i) => ({ id: `t${i + 1}`, description: 'd', expectedOutput: 'o', agentId })),
  };
}

const elk = new ELK();
const engines = {
  dagre: async (doc: CrewDraft) => dagreLayout(crewLayoutGraph(doc)),
  elk: (doc: CrewDraft) => elkLayout(crewLayoutGraph(doc), elk),
};

describe.each(Object.entries(engines))('auto-layout with %s', (_name, layout) => {
  it('keeps the declared agent order (agent 1 above agent 2 …) and crosses no edge when the order allows it', async () => {
    const doc = crew(['a1', 'a2', 'a3', 'a4', 'a5', 'a6'], ['a1', 'a1', 'a2', 'a3', 'a3', 'a4', 'a5', 'a6', 'a6']);
    const positions = await layout(doc);
    const ys = ['a1', 'a2', 'a3', 'a4', 'a5', 'a6'].map((id) => positions[`agent:${id}`]!.y);
    expect([...ys].sort((a, b) => a - b)).toEqual(ys);
    expect(new Set(ys).size).toBe(6);
    const q = layoutQuality(crewLayoutGraph(doc), positions);
    expect(q).toMatchObject({ crossings: 0, tasksInOrder: true, agentInversions: 0 });
    // Agents sit to the right of the tasks column.
    expect(positions['agent:a1']!.x).toBeGreaterThan(positions['task:t1']!.x);
  });

  it('reorders agents declared against their tasks so that nothing crosses, tasks staying in order', async () => {
    // The writer is declared first but works last: in declared order its edge would cross the researcher's.
    const doc = crew(['writer', 'idle', 'researcher'], ['researcher', 'researcher', 'writer']);
    const positions = await layout(doc);
    const q = layoutQuality(crewLayoutGraph(doc), positions);
    expect(q.crossings).toBe(0);
    expect(q.tasksInOrder).toBe(true);
    expect(positions['agent:researcher']!.y).toBeLessThan(positions['agent:writer']!.y);
  });

  it('places the manager of a hierarchical crew above the agents', async () => {
    const doc = crew(['a1', 'a2'], ['a1', 'a2'], 'hierarchical');
    const positions = await layout(doc);
    expect(positions.manager!.y).toBeLessThan(Math.min(positions['agent:a1']!.y, positions['agent:a2']!.y));
    expect(positions['agent:a1']!.y).toBeLessThan(positions['agent:a2']!.y);
  });
});

describe('agent order', () => {
  it('keeps an idle agent after the agent declared before it, and the declared order where swaps gain nothing', () => {
    const g = crewLayoutGraph(crew(['a', 'idle', 'b', 'c'], ['a', 'b', 'c']));
    expect(orderAgents(g)).toEqual(['agent:a', 'agent:idle', 'agent:b', 'agent:c']);
    // a: tasks 1 and 4, b: task 2 — either order crosses once: declared order stays.
    const tie = crewLayoutGraph(crew(['a', 'b'], ['a', 'b', 'x', 'a']));
    expect(orderAgents(tie)).toEqual(['agent:a', 'agent:b']);
    const reversed = crewLayoutGraph(crew(['b', 'a'], ['a', 'b']));
    expect(orderAgents(reversed)).toEqual(['agent:a', 'agent:b']);
  });

  it('on the 300-node crew keeps the declared order, which is the one with fewest crossings (4,950)', () => {
    const agents = Array.from({ length: 100 }, (_, i) => `agent-${i + 1}`);
    const doc = crew(agents, Array.from({ length: 200 }, (_, i) => agents[i % 100]!));
    const g = crewLayoutGraph(doc);
    expect(orderAgents(g)).toEqual(agents.map((id) => `agent:${id}`));
    // Any two agents cross at least once (a's second task comes after b's first): C(100, 2) = 4,950.
    const q = layoutQuality(g, computeAutoLayout(doc));
    expect(q).toMatchObject({ crossings: 4950, tasksInOrder: true, agentInversions: 0 });
  });
});
