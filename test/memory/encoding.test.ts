import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RuntimeEvent } from '../../shared/events';
import { parseCrewDocument } from '../../shared/model/parse';
import type { MemoryStore } from '../../runtime/memory/memoryStore';
import { openWorkspaceMemory } from '../../runtime/memory/workspaceMemory';
import { agentPrompts, crew, ofType, runCrew, scripted, tempWorkspace } from '../support/crewHarness';

let ws: ReturnType<typeof tempWorkspace>;
let memory: MemoryStore;

beforeEach(async () => {
  ws = tempWorkspace('crewdeck-encoding-');
  memory = await openWorkspaceMemory(ws.dir, { settings: undefined, env: {} });
});

afterEach(() => {
  memory.close();
  ws.remove();
});

const EXTRACT = 'long-term memory of an AI agent crew';
const CONSOLIDATE = 'memory consistent';
const extraction = (...contents: string[]) => JSON.stringify({ memories: contents.map((content) => ({ content, categories: ['project'], importance: 0.7 })) });

type Rules = { when: Record<string, unknown>; reply: unknown }[];

/** One agent, one task; the agent's scripted model also answers the memory prompts. */
function memoryCrew(opts: { agentReplies: unknown; rules?: Rules; guardrails?: unknown[]; commit?: 'immediate'; tools?: string[]; description?: string }) {
  return crew({
    id: 'launch-crew',
    memory: { enabled: true, ...(opts.commit ? { commit: opts.commit } : {}) },
    agents: [
      {
        id: 'planner',
        role: 'Planner',
        goal: 'Plan the launch',
        tools: (opts.tools ?? []).map((tool) => ({ tool })),
        llm: scripted({ rules: [...(opts.rules ?? []), { when: {}, reply: opts.agentReplies }] }),
      },
    ],
    tasks: [
      {
        id: 'plan',
        description: opts.description ?? 'Plan the Orion product launch',
        expectedOutput: 'A launch plan',
        agentId: 'planner',
        guardrails: opts.guardrails ?? [],
        guardrailMaxRetries: 2,
      },
    ],
  });
}

const run = (doc: ReturnType<typeof memoryCrew>) => runCrew(doc, { workspace: ws, memory });
const types = (events: RuntimeEvent[]) => events.map((e) => e.type).filter((t) => t.startsWith('memory.write'));

describe('encoding task outputs into memory', () => {
  it('a memory written in run 1 is recalled into the task prompt of run 2, and the trace says which one', async () => {
    const rules: Rules = [{ when: { system: EXTRACT }, reply: extraction('The Orion launch is on March 5 2026 in Berlin') }];
    const first = await run(memoryCrew({ agentReplies: 'Launch Orion on March 5 2026 in Berlin.', rules }));
    expect(first.result.status).toBe('completed');
    const committed = ofType(first.events, 'memory.write.committed')[0];
    expect(committed).toMatchObject({ taskId: 'plan', attempt: 1, inserted: 1 });
    const [record] = await memory.list({ scope: '/crew/launch-crew' });
    expect(record).toMatchObject({
      id: committed!.recordIds[0],
      content: 'The Orion launch is on March 5 2026 in Berlin',
      categories: ['project'],
      importance: 0.7,
      source: { kind: 'task', runId: first.result.runId, taskId: 'plan', agentRole: 'Planner' },
    });

    const second = await run(memoryCrew({ agentReplies: 'Done.', rules: [{ when: { system: EXTRACT }, reply: extraction() }] }));
    const recall = ofType(second.events, 'memory.recall')[0];
    expect(recall!.records.map((r) => r.id)).toContain(record!.id);
    expect(agentPrompts(second.events, 'Planner')[0]).toContain('The Orion launch is on March 5 2026 in Berlin');
    // Nothing worth keeping the second time: committed with nothing written.
    expect(ofType(second.events, 'memory.write.committed')[0]).toMatchObject({ inserted: 0, skipped: 0 });
  });

  it('keeps the whole output as one memory when extraction fails, and says why', async () => {
    const { events, result } = await run(memoryCrew({ agentReplies: 'Budget: 40k for ads, 10k for the event.', rules: [{ when: { system: EXTRACT }, reply: 'not json at all' }] }));
    const decision = ofType(events, 'memory.write.decision')[0];
    expect(decision).toMatchObject({ action: 'insert', content: 'Budget: 40k for ads, 10k for the event.', decidedBy: 'rule' });
    expect(decision!.reason).toMatch(/extraction failed .*whole output is kept/);
    const records = await memory.list();
    expect(records.map((r) => r.content)).toEqual(['Budget: 40k for ads, 10k for the event.']);
    expect(records[0]!.source.runId).toBe(result.runId);
  });

  it('with a guardrail that rejects the first attempt, nothing extracted from the rejected output reaches the store', async () => {
    const rules: Rules = [
      { when: { system: EXTRACT, last: 'green' }, reply: extraction('The client hates the colour green') },
      { when: { system: EXTRACT, last: 'blue' }, reply: extraction('The client signed off on the blue logo') },
    ];
    const doc = memoryCrew({
      agentReplies: ['Use a green logo.', 'APPROVED: use the blue logo.'],
      rules,
      guardrails: [{ type: 'contains', text: 'APPROVED' }],
    });
    const { events, result } = await run(doc);
    expect(result.status).toBe('completed');
    expect(types(events)).toEqual(['memory.write.staged', 'memory.write.discarded', 'memory.write.staged', 'memory.write.decision', 'memory.write.committed']);
    const discarded = ofType(events, 'memory.write.discarded')[0];
    expect(discarded).toMatchObject({ attempt: 1, dropped: 1 });
    expect(discarded!.reason).toMatch(/attempt 1 was rejected: .*APPROVED/);
    // The rejected output was never even sent to the memory model.
    const extractCalls = ofType(events, 'llm.started').filter((e) => e.purpose === 'memory_extract');
    expect(extractCalls).toHaveLength(1);
    expect((await memory.list()).map((r) => r.content)).toEqual(['The client signed off on the blue logo']);
  });

  it('with commit "immediate" the rejected output is remembered too (CrewAI behaviour)', async () => {
    const rules: Rules = [
      { when: { system: EXTRACT, last: 'green' }, reply: extraction('The client hates the colour green') },
      { when: { system: EXTRACT, last: 'blue' }, reply: extraction('The client signed off on the blue logo') },
    ];
    const doc = memoryCrew({
      agentReplies: ['Use a green logo.', 'APPROVED: use the blue logo.'],
      rules,
      guardrails: [{ type: 'contains', text: 'APPROVED' }],
      commit: 'immediate',
    });
    const { events } = await run(doc);
    expect(ofType(events, 'memory.write.discarded')).toHaveLength(0);
    expect(ofType(events, 'memory.write.staged').map((e) => e.policy)).toEqual(['immediate', 'immediate']);
    expect((await memory.list()).map((r) => r.content).sort()).toEqual(['The client hates the colour green', 'The client signed off on the blue logo']);
  });

  it('skips near-duplicates of existing records', async () => {
    const [existing] = await memory.add([{ content: 'The Orion product launches on March 3 2026 in Berlin', scope: '/crew/launch-crew', source: { kind: 'manual' } }]);
    const rules: Rules = [{ when: { system: EXTRACT }, reply: extraction('The Orion product launches on March 3, 2026 in Berlin.', 'Tickets cost 40 euros') }];
    const { events } = await run(memoryCrew({ agentReplies: 'Plan ready.', rules }));
    const skipped = ofType(events, 'memory.write.skipped');
    expect(skipped).toHaveLength(1);
    expect(skipped[0]).toMatchObject({ duplicateOf: existing!.id, content: 'The Orion product launches on March 3, 2026 in Berlin.' });
    expect(skipped[0]!.similarity).toBeGreaterThanOrEqual(0.98);
    expect(ofType(events, 'memory.write.committed')[0]).toMatchObject({ inserted: 1, skipped: 1 });
    expect(await memory.count()).toBe(2);
  });

  it('a consolidation update keeps source and private and records the earlier content', async () => {
    const [existing] = await memory.add([
      { content: 'The Orion product launches on March 3 2026 in Berlin', scope: '/crew/launch-crew', source: { kind: 'manual', agentRole: 'Founder' }, private: true },
    ]);
    const rules: Rules = [
      { when: { system: EXTRACT }, reply: extraction('The Orion product launches on March 5 2026 in Berlin') },
      {
        when: { system: CONSOLIDATE },
        reply: JSON.stringify({
          insert: false,
          reason: 'the date moved; one record is enough',
          records: [{ id: existing!.id, action: 'update', content: 'The Orion product launches on March 5 2026 in Berlin (moved from March 3)', reason: 'the launch date moved' }],
        }),
      },
    ];
    const { events } = await run(memoryCrew({ agentReplies: 'Launch moved to March 5.', rules }));
    // The model saw the whole existing record, not a fragment.
    const consolidation = ofType(events, 'llm.started').find((e) => e.purpose === 'memory_consolidate')!;
    expect(consolidation.messages.at(-1)!.content).toContain(`id: ${existing!.id}`);
    expect(consolidation.messages.at(-1)!.content).toContain('The Orion product launches on March 3 2026 in Berlin');

    const decision = ofType(events, 'memory.write.decision')[0];
    expect(decision).toMatchObject({ action: 'update', recordId: existing!.id, decidedBy: 'model', reason: 'the launch date moved' });
    expect(decision!.similar[0]!.id).toBe(existing!.id);
    expect(decision!.similar[0]!.similarity).toBeGreaterThanOrEqual(0.85);
    expect(ofType(events, 'memory.write.skipped')[0]!.reason).toContain('one record is enough');

    const after = await memory.get(existing!.id);
    expect(after).toMatchObject({
      content: 'The Orion product launches on March 5 2026 in Berlin (moved from March 3)',
      private: true,
      source: { kind: 'manual', agentRole: 'Founder' },
    });
    expect(after!.history).toEqual([expect.objectContaining({ content: 'The Orion product launches on March 3 2026 in Berlin', reason: 'the launch date moved' })]);
    expect(await memory.count()).toBe(1);
  });

  it('inserts when the memory model fails during consolidation, and deletes what the model calls outdated', async () => {
    const [a, b] = await memory.add([
      { content: 'The Orion product launches on March 3 2026 in Berlin', scope: '/crew/launch-crew', source: { kind: 'manual' } },
      { content: 'The Vega product launches on March 3 2026 in Berlin', scope: '/crew/launch-crew', source: { kind: 'manual' } },
    ]);
    const failing: Rules = [
      { when: { system: EXTRACT }, reply: extraction('The Orion product launches on March 5 2026 in Berlin') },
      { when: { system: CONSOLIDATE }, reply: { error: { status: 400, message: 'model overloaded' } } },
    ];
    const failed = await run(memoryCrew({ agentReplies: 'Moved.', rules: failing }));
    const fallback = ofType(failed.events, 'memory.write.decision')[0];
    expect(fallback).toMatchObject({ action: 'insert', decidedBy: 'fallback' });
    expect(fallback!.reason).toMatch(/memory model failed .*model overloaded/);
    expect(failed.result.status).toBe('completed');
    expect(await memory.count()).toBe(3);

    const deleting: Rules = [
      { when: { system: EXTRACT }, reply: extraction('The Vega product launches on March 9 2026 in Berlin') },
      {
        when: { system: CONSOLIDATE },
        reply: JSON.stringify({ insert: true, reason: 'newer date', records: [{ id: b!.id, action: 'delete', reason: 'contradicted by the new date' }] }),
      },
    ];
    const deleted = await run(memoryCrew({ agentReplies: 'Vega moved.', rules: deleting }));
    expect(ofType(deleted.events, 'memory.write.decision').map((d) => [d.action, d.recordId === b!.id])).toEqual([
      ['delete', true],
      ['insert', false],
    ]);
    expect(await memory.get(b!.id)).toBeUndefined();
    expect(await memory.get(a!.id)).toBeDefined();
  });
});

describe('memory tools', () => {
  it('save_memory is staged with the attempt: dropped when it is rejected, written when accepted', async () => {
    const save = (content: string) => ({ toolCalls: [{ name: 'save_memory', arguments: { content, categories: ['style'] } }] });
    const doc = memoryCrew({
      tools: ['save_memory'],
      agentReplies: [save('Headlines use title case'), 'Draft one', save('Headlines use sentence case'), 'APPROVED draft two'],
      rules: [{ when: { system: EXTRACT }, reply: extraction() }],
      guardrails: [{ type: 'contains', text: 'APPROVED' }],
    });
    const { events } = await run(doc);
    const staged = ofType(events, 'memory.write.staged');
    expect(staged.map((s) => s.saved)).toEqual([['Headlines use title case'], ['Headlines use sentence case']]);
    expect(ofType(events, 'tool.completed')[0]!.result).toContain("once this task's output is accepted");
    const records = await memory.list();
    expect(records.map((r) => [r.content, r.source.kind, r.categories])).toEqual([['Headlines use sentence case', 'tool', ['style']]]);
  });

  it('search_memory returns the best matches per query through the policy gate', async () => {
    await memory.add([
      { content: 'The venue in Berlin holds 300 people', scope: '/crew/launch-crew', source: { kind: 'manual' } },
      { content: 'Out of scope venue detail', scope: '/crew/someone-else', source: { kind: 'manual' } },
    ]);
    const doc = memoryCrew({
      tools: ['search_memory'],
      agentReplies: [{ toolCalls: [{ name: 'search_memory', arguments: { queries: ['venue capacity Berlin'], limit: 3 } }] }, 'About 300 people.'],
      rules: [{ when: { system: EXTRACT }, reply: extraction() }],
    });
    const { events } = await run(doc);
    const started = ofType(events, 'tool.started')[0];
    expect(started).toMatchObject({ tool: 'search_memory', args: { queries: ['venue capacity Berlin'], limit: 3 } });
    const result = ofType(events, 'tool.completed')[0]!.result;
    expect(result).toContain('The venue in Berlin holds 300 people');
    expect(result).not.toContain('Out of scope');
  });

  it('a crew without memory cannot give an agent the memory tools', () => {
    const parsed = parseCrewDocument({
        kind: 'crew',
        version: 1,
        id: 'c',
        name: 'C',
        agents: [{ id: 'a', role: 'A', goal: 'g', tools: [{ tool: 'search_memory' }] }],
        tasks: [{ id: 't', description: 'd', expectedOutput: 'o', agentId: 'a' }],
    });
    expect(parsed.ok).toBe(false);
    const messages = parsed.ok ? [] : parsed.problems.map((p) => `${p.path}: ${p.message}`);
    expect(messages).toContain('agents.0.tools.0.tool: "search_memory" needs memory, but the crew has no memory (turn on memory.enabled)');
  });
});
