import { describe, expect, it } from 'vitest';
import { parseCrewDocument } from '../../shared/model/parse';
import { GuardrailSchema } from '../../shared/model/guardrail';

const minimal = {
  kind: 'crew',
  version: 1,
  id: 'c',
  name: 'C',
  agents: [{ id: 'a', role: 'A', goal: 'g' }],
  tasks: [{ id: 't', description: 'd', expectedOutput: 'e', agentId: 'a' }],
};

describe('crew document', () => {
  it('applies the documented defaults', () => {
    const parsed = parseCrewDocument(minimal);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
    const [agent] = parsed.value.agents;
    const [task] = parsed.value.tasks;
    expect(parsed.value.process).toBe('sequential');
    expect(agent).toMatchObject({ backstory: '', tools: [], allowDelegation: false, maxIter: 25, cache: true, respectContextWindow: true });
    expect(task).toMatchObject({ async: false, humanInput: false, guardrails: [], guardrailMaxRetries: 3 });
    expect(task!.context).toBeUndefined();
  });

  it('reports every problem with its path, shape and references together', () => {
    const parsed = parseCrewDocument({
      ...minimal,
      version: 2,
      agents: [
        { id: 'a', role: 'A', goal: 'g', tools: [{ tool: 'teleport' }] },
        { id: 'a', role: 'a ', goal: 'g', maxIter: 0 },
      ],
      tasks: [
        { id: 't1', description: 'd', expectedOutput: 'e', agentId: 'ghost', context: ['t2'] },
        { id: 't2', description: 'd', expectedOutput: 'e', agentId: 'a', guardrails: [{ type: 'regex', pattern: '[' }, { type: 'length' }], output: { format: 'text', schema: {} } },
      ],
      surprise: true,
    });
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    const lines = parsed.problems.map((p) => `${p.path}: ${p.message}`);
    const expectAt = (path: string, text: string) => expect(lines.find((l) => l.startsWith(`${path}: `) && l.includes(text)), `${path} ${text} in\n${lines.join('\n')}`).toBeDefined();
    expectAt('version', '1');
    expectAt('agents.1.maxIter', '');
    expectAt('agents.0.tools.0.tool', 'unknown tool "teleport"');
    expectAt('agents.1.id', 'duplicate agent id "a"');
    expectAt('tasks.0.agentId', 'no agent with id "ghost"');
    expectAt('tasks.0.context.0', 'runs later');
    expectAt('tasks.1.guardrails.0.pattern', 'not a valid regular expression');
    expectAt('tasks.1.guardrails.1', 'needs min or max');
    expectAt('tasks.1.output.format', 'needs format "json"');
    expectAt('(document)', 'surprise');
  });

  it('checks hierarchical manager references', () => {
    const parsed = parseCrewDocument({
      ...minimal,
      process: 'hierarchical',
      manager: { agentId: 'a' },
      tasks: [{ id: 't', description: 'd', expectedOutput: 'e', agentId: 'a' }],
    });
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.problems).toContainEqual({ path: 'tasks.0.agentId', message: '"a" is the manager; assign the task to a worker agent' });
    // A hierarchical task may leave the agent to the manager.
    expect(parseCrewDocument({ ...minimal, process: 'hierarchical', tasks: [{ id: 't', description: 'd', expectedOutput: 'e' }] }).ok).toBe(true);
  });

  it('accepts exactly the six guardrail kinds', () => {
    const valid = [
      { type: 'regex', pattern: 'SHIP IT', flags: 'i' },
      { type: 'length', min: 1, max: 5 },
      { type: 'contains', text: 'x' },
      { type: 'not_contains', text: 'x' },
      { type: 'json_schema', schema: { type: 'object' } },
      { type: 'llm', criterion: 'is polite', llm: 'judge' },
    ];
    for (const g of valid) expect(GuardrailSchema.safeParse(g).success, JSON.stringify(g)).toBe(true);
    for (const g of [{ type: 'script', code: 'x' }, { type: 'regex' }, { type: 'contains', text: 'x', extra: 1 }, { type: 'length', min: 5, max: 1 }]) {
      expect(GuardrailSchema.safeParse(g).success, JSON.stringify(g)).toBe(false);
    }
  });
});

describe('problem wording', () => {
  it('says an empty required text must not be empty (not zod’s "too small")', () => {
    const parsed = parseCrewDocument({
      kind: 'crew',
      version: 1,
      id: 'c',
      name: '',
      agents: [{ id: 'a', role: 'Writer', goal: '' }],
      tasks: [{ id: 't', description: 'd', expectedOutput: 'e', agentId: 'a' }],
    });
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      expect(parsed.problems).toEqual([
        { path: 'name', message: 'must not be empty' },
        { path: 'agents.0.goal', message: 'must not be empty' },
      ]);
    }
  });
});
