import { describe, expect, it } from 'vitest';
import { parseCrewDocument } from '../../../shared/model/parse';
import type { Problem } from '../../../shared/model/problems';
import { documentToGraph } from '../../../renderer/canvas/documentToGraph';
import { withFullLayout } from '../../../renderer/commands/fullLayout';
import type { CrewDraft } from '../../../renderer/commands/crewDraft';
import { hierarchicalCrew, sequentialCrew } from '../document/crewFixtures';

const problemsOf = (doc: unknown): Problem[] => {
  const r = parseCrewDocument(doc);
  return r.ok ? [] : r.problems;
};
const node = (graph: ReturnType<typeof documentToGraph>, id: string) => graph.nodes.find((n) => n.id === id);

describe('documentToGraph', () => {
  it('draws agents, numbered tasks, assignment edges and one context edge per listed task', () => {
    const graph = documentToGraph(sequentialCrew());
    expect(graph.nodes.map((n) => `${n.type}:${n.id}`)).toEqual([
      'agent:agent:researcher',
      'agent:agent:writer',
      'task:task:research',
      'task:task:outline',
      'task:task:brief',
    ]);
    const brief = node(graph, 'task:brief');
    expect(brief?.type === 'task' && brief.data).toMatchObject({ order: 3, title: 'Write the brief', guardrails: 2, humanInput: true, context: 'list', assigned: true });
    const outline = node(graph, 'task:outline');
    expect(outline?.type === 'task' && outline.data).toMatchObject({ order: 2, title: 'outline', context: 'none', humanInput: false, guardrails: 0 });
    const researcher = node(graph, 'agent:researcher');
    expect(researcher?.type === 'agent' && researcher.data).toMatchObject({ role: 'Researcher', model: 'default model', tools: ['read_file', 'calculator'] });
    const writer = node(graph, 'agent:writer');
    expect(writer?.type === 'agent' && writer.data.model).toBe('demo · scripted demo model');

    const edges = graph.edges.map((e) => `${e.type} ${e.source}→${e.target}`).sort();
    expect(edges).toEqual([
      'assignment task:brief→agent:writer',
      'assignment task:outline→agent:writer',
      'assignment task:research→agent:researcher',
      'context task:outline→task:brief',
      'context task:research→task:brief',
    ]);
    const longContext = graph.edges.find((e) => e.id === 'ctx|task:research|task:brief');
    expect(longContext?.type === 'context' && longContext.data).toEqual({ source: 'task:research', target: 'task:brief', span: 2, invalid: false });
    expect(graph.nodes.some((n) => n.type === 'manager')).toBe(false);
  });

  it('draws no edges for omitted context (all prior outputs): the node says so instead', () => {
    const doc = sequentialCrew();
    doc.tasks![2] = { ...doc.tasks![2], context: undefined };
    const graph = documentToGraph(doc);
    expect(graph.edges.filter((e) => e.type === 'context')).toEqual([]);
    const brief = node(graph, 'task:brief');
    expect(brief?.type === 'task' && brief.data.context).toBe('all');
  });

  it('uses saved positions, and lays out a crew without a layout with the tasks in one column, in order', () => {
    const placed = documentToGraph(sequentialCrew());
    expect(node(placed, 'task:outline')?.position).toEqual({ x: 0, y: 150 });
    expect(node(placed, 'agent:writer')?.position).toEqual({ x: 400, y: 150 });

    const doc = hierarchicalCrew();
    const graph = documentToGraph(doc);
    const pricing = node(graph, 'task:pricing')!.position;
    const announce = node(graph, 'task:announce')!.position;
    const analyst = node(graph, 'agent:analyst')!.position;
    const manager = node(graph, 'manager')!.position;
    expect(pricing.x).toBe(announce.x);
    expect(announce.y).toBeGreaterThan(pricing.y);
    expect(analyst.x).toBeGreaterThan(pricing.x + 200);
    expect(manager.y).toBeLessThan(analyst.y);
  });

  it('puts nodes that have no saved position below the ones the person arranged', () => {
    const doc = sequentialCrew();
    doc.agents = [...doc.agents!, { id: 'editor', role: 'Editor', goal: 'Edit' }];
    const graph = documentToGraph(doc);
    const editor = node(graph, 'agent:editor')!.position;
    expect(editor.y).toBeGreaterThanOrEqual(300 + 150);
    const full = withFullLayout(doc).layout as Record<string, { x: number; y: number }>;
    expect(full['agent:editor']).toEqual(editor);
    expect(full['task:research']).toEqual({ x: 0, y: 0 });
  });

  it('puts the manager of a crew switched to hierarchical above its agents, not under the tasks', () => {
    const doc = sequentialCrew();
    const saved = doc.layout as Record<string, { x: number; y: number }>;
    const agents = Object.entries(saved).filter(([id]) => id.startsWith('agent:')).map(([, p]) => p);
    const tasks = Object.entries(saved).filter(([id]) => id.startsWith('task:')).map(([, p]) => p);
    doc.process = 'hierarchical';
    const manager = node(documentToGraph(doc), 'manager')!.position;
    expect(manager.x).toBe(Math.min(...agents.map((p) => p.x)));
    expect(manager.y).toBeLessThan(Math.min(...agents.map((p) => p.y)));
    expect(manager.y).toBeLessThan(Math.max(...tasks.map((p) => p.y)));
    expect((withFullLayout(doc).layout as Record<string, unknown>).manager).toEqual(manager);
  });

  it('draws the built-in manager of a hierarchical crew with delegation edges to every agent', () => {
    const graph = documentToGraph(hierarchicalCrew());
    const manager = node(graph, 'manager');
    expect(manager?.type).toBe('manager');
    expect(manager?.type === 'manager' && manager.data).toMatchObject({ source: 'builtin', model: 'demo-manager · scripted demo model', delegateTo: 'assigned' });
    expect(manager?.deletable).toBe(false);
    expect(graph.edges.filter((e) => e.type === 'delegation').map((e) => `${e.source}→${e.target}`)).toEqual(['manager→agent:analyst', 'manager→agent:copywriter']);
  });

  it('draws a user agent named as manager as the manager node, delegating to the other agents', () => {
    const doc = hierarchicalCrew();
    doc.manager = { agentId: 'analyst', delegateTo: 'all' };
    const graph = documentToGraph(doc);
    expect(node(graph, 'manager')).toBeUndefined();
    const analyst = node(graph, 'agent:analyst');
    expect(analyst?.type).toBe('manager');
    expect(analyst?.type === 'manager' && analyst.data).toMatchObject({ source: 'agent', title: 'Analyst', tools: ['calculator'], delegateTo: 'all' });
    expect(graph.edges.filter((e) => e.type === 'delegation').map((e) => `${e.source}→${e.target}`)).toEqual(['agent:analyst→agent:copywriter']);
  });

  it('draws an invalid document without throwing: broken entries, duplicate ids, dangling references', () => {
    const doc = {
      kind: 'crew',
      agents: [{ id: 'a', role: 'A' }, null, { id: 'a', role: 'Again' }, { role: 'No id' }],
      tasks: [{ id: 't', agentId: 'ghost', context: ['later', 'nowhere'] }, 'junk', { id: 'later' }],
      layout: { 'agent:a': { x: 'left', y: 3 } },
    } as unknown as CrewDraft;
    const graph = documentToGraph(doc);
    expect(graph.nodes.map((n) => n.id)).toEqual(['agent:a', 'agent:#1', 'agent:#2', 'agent:#3', 'task:t', 'task:#1', 'task:later']);
    expect(graph.nodes.every((n) => Number.isFinite(n.position.x) && Number.isFinite(n.position.y))).toBe(true);
    // No assignment to a missing agent; the context entry naming a later task is drawn and flagged.
    expect(graph.edges.map((e) => e.id)).toEqual(['ctx|task:later|task:t']);
    const ctx = graph.edges[0];
    expect(ctx!.type === 'context' && ctx!.data?.invalid).toBe(true);

    expect(() => documentToGraph({ agents: 'none', tasks: 7 } as unknown as CrewDraft)).not.toThrow();
    expect(documentToGraph({} as CrewDraft).nodes).toEqual([]);
  });

  it('puts each validation problem on the node at fault and the rest in the banner list', () => {
    const doc = hierarchicalCrew();
    doc.name = '';
    doc.manager = { agentId: 'copywriter' };
    doc.agents![0] = { ...doc.agents![0], role: '' };
    doc.tasks![0] = { ...doc.tasks![0], guardrails: [{ type: 'regex', pattern: '(' }] };
    const problems = problemsOf(doc);
    const graph = documentToGraph(doc, problems);

    const analyst = node(graph, 'agent:analyst')!;
    expect(analyst.data.problems).toHaveLength(1);
    expect(analyst.data.problems[0]).toMatch(/^role: /);
    const pricing = node(graph, 'task:pricing')!;
    expect(pricing.data.problems.some((p) => p.startsWith('guardrails.0.pattern: is not a valid regular expression'))).toBe(true);
    // The copywriter is now the manager: its task assignment is the problem, and it is drawn as the manager.
    const announce = node(graph, 'task:announce')!;
    expect(announce.data.problems.some((p) => p.includes('is the manager'))).toBe(true);
    expect(node(graph, 'agent:copywriter')?.type).toBe('manager');
    expect(graph.generalProblems.map((p) => p.path)).toEqual(['name']);
  });

  it('puts manager problems on the manager node, and a manager agent that does not exist in the banner', () => {
    const doc = hierarchicalCrew();
    doc.manager = { llm: { provider: 'nobody', model: 'x' } as never };
    let graph = documentToGraph(doc, problemsOf(doc));
    expect(node(graph, 'manager')!.data.problems.length).toBeGreaterThan(0);
    expect(node(graph, 'manager')!.data.problems[0]).toMatch(/^llm/);

    doc.manager = { agentId: 'ghost' };
    graph = documentToGraph(doc, problemsOf(doc));
    expect(node(graph, 'manager')).toBeUndefined();
    expect(graph.generalProblems).toEqual([{ path: 'manager.agentId', message: 'no agent with id "ghost"' }]);
  });
});
