import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MemoryStore } from '../../runtime/memory/memoryStore';
import { openWorkspaceMemory } from '../../runtime/memory/workspaceMemory';
import { crew, ofType, runCrew, scripted, tempWorkspace } from '../support/crewHarness';

/** The memory model's replies are read like every other structured reply (runtime/reading), and say how. */
let ws: ReturnType<typeof tempWorkspace>;
let memory: MemoryStore;

beforeEach(async () => {
  ws = tempWorkspace('crewdeck-lenient-memory-');
  memory = await openWorkspaceMemory(ws.dir, { settings: undefined, env: {} });
});

afterEach(() => {
  memory.close();
  ws.remove();
});

const EXTRACT = 'long-term memory of an AI agent crew';
const CONSOLIDATE = 'memory consistent';

function memoryCrew(rules: { when: Record<string, unknown>; reply: unknown }[], agentReply: string) {
  return crew({
    id: 'launch-crew',
    memory: { enabled: true },
    agents: [{ id: 'planner', role: 'Planner', goal: 'Plan the launch', llm: scripted({ rules: [...rules, { when: {}, reply: agentReply }] }) }],
    tasks: [{ id: 'plan', description: 'Plan the Orion product launch', expectedOutput: 'A launch plan', agentId: 'planner' }],
  });
}

describe("reading the memory model's replies leniently", () => {
  it('a fenced, chatty extraction reply is read, and memory.write.committed says how', async () => {
    const reply =
      'Sure! Here are the memories worth keeping:\n\n```json\n' +
      JSON.stringify({ memories: [{ content: 'The Orion launch is on March 5 2026', categories: ['project'], importance: 0.8 }] }) +
      '\n```\n\nLet me know if you need more.';
    const { result, events } = await runCrew(memoryCrew([{ when: { system: EXTRACT }, reply }], 'Launch Orion on March 5 2026.'), { workspace: ws, memory });
    expect(result.status).toBe('completed');
    const committed = ofType(events, 'memory.write.committed')[0];
    expect(committed).toMatchObject({ inserted: 1, readAs: ['fenced-json'] });
    const records = await memory.list();
    // The extracted fact, not the whole task output kept because extraction "failed".
    expect(records.map((r) => r.content)).toEqual(['The Orion launch is on March 5 2026']);
    expect(records[0]).toMatchObject({ categories: ['project'], importance: 0.8 });
    expect(ofType(events, 'memory.write.decision')[0]!.reason).not.toMatch(/extraction failed/);
  });

  it('a plain JSON extraction reply carries no readAs', async () => {
    const reply = JSON.stringify({ memories: [{ content: 'Orion ships in Berlin' }] });
    const { events } = await runCrew(memoryCrew([{ when: { system: EXTRACT }, reply }], 'Ship Orion in Berlin.'), { workspace: ws, memory });
    const committed = ofType(events, 'memory.write.committed')[0];
    expect(committed!.inserted).toBe(1);
    expect(committed!.readAs).toBeUndefined();
  });

  it('a consolidation reply among prose is read: the update happens and the decision says how', async () => {
    const [existing] = await memory.add([{ content: 'The Orion product launches on March 3 2026 in Berlin', scope: '/crew/launch-crew', source: { kind: 'manual' } }]);
    const plan = {
      insert: false,
      reason: 'the date moved',
      records: [{ id: existing!.id, action: 'update', content: 'The Orion product launches on March 5 2026 in Berlin', reason: 'the launch date moved' }],
    };
    const rules = [
      { when: { system: EXTRACT }, reply: JSON.stringify({ memories: [{ content: 'The Orion product launches on March 5 2026 in Berlin' }] }) },
      { when: { system: CONSOLIDATE }, reply: `Looking at the records, here is my decision:\n**${JSON.stringify(plan)}**\nHope this helps!` },
    ];
    const { events } = await runCrew(memoryCrew(rules, 'Launch moved to March 5.'), { workspace: ws, memory });
    const decision = ofType(events, 'memory.write.decision')[0];
    expect(decision).toMatchObject({ action: 'update', recordId: existing!.id, decidedBy: 'model', readAs: ['json-in-prose'] });
    expect((await memory.get(existing!.id))!.content).toBe('The Orion product launches on March 5 2026 in Berlin');
    expect(await memory.count()).toBe(1);
  });
});
