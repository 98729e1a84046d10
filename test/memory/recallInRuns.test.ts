import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EventOf } from '../../shared/events';
import { openWorkspaceMemory } from '../../runtime/memory/workspaceMemory';
import type { MemoryStore } from '../../runtime/memory/memoryStore';
import { crew, runCrew, scripted, tempWorkspace } from '../support/crewHarness';

let ws: ReturnType<typeof tempWorkspace>;
let memory: MemoryStore;
const ids: Record<string, string> = {};

beforeEach(async () => {
  ws = tempWorkspace('crewdeck-recall-');
  memory = await openWorkspaceMemory(ws.dir, { settings: undefined, env: {} });
  const [pricing, style, other] = await memory.add([
    { content: 'Solar panel installation costs about 2.60 per watt in 2026', scope: '/crew/solar-crew', source: { kind: 'manual' }, importance: 0.9 },
    { content: 'Readers prefer short sentences with numbers first', scope: '/crew/solar-crew/agent/Writer', source: { kind: 'manual' } },
    { content: 'Solar panel prices for another crew that must never leak', scope: '/crew/other-crew', source: { kind: 'manual' } },
  ]);
  Object.assign(ids, { pricing: pricing!.id, style: style!.id, other: other!.id });
});

afterEach(() => {
  memory.close();
  ws.remove();
});

function solarCrew(memoryEnabled: boolean, agentMemory?: boolean) {
  return crew({
    id: 'solar-crew',
    ...(memoryEnabled ? { memory: { enabled: true } } : {}),
    agents: [{ id: 'analyst', role: 'Analyst', goal: 'Price things', llm: scripted({ default: 'About 10,400 in total.' }), ...(agentMemory === undefined ? {} : { memory: agentMemory }) }],
    tasks: [{ id: 'price', description: 'Work out what a solar panel installation costs', expectedOutput: 'A price', agentId: 'analyst' }],
  });
}

describe('memory recall in runs', () => {
  it("recalls the crew's memories by the task description, puts them in the prompt, and says which ones", async () => {
    const { events } = await runCrew(solarCrew(true), { workspace: ws });
    const recall = events.find((e): e is EventOf<'memory.recall'> => e.type === 'memory.recall');
    expect(recall).toMatchObject({ taskId: 'price', agentRole: 'Analyst', scope: '/crew/solar-crew', query: 'Work out what a solar panel installation costs' });
    const recalled = recall!.records.map((r) => r.id);
    expect(recalled[0]).toBe(ids.pricing);
    expect(recalled).not.toContain(ids.other);
    expect(recall!.records[0]!.reasons.length).toBeGreaterThan(0);

    const prompt = events.find((e): e is EventOf<'llm.started'> => e.type === 'llm.started')!;
    const user = prompt.messages.filter((m) => m.role === 'user').map((m) => m.content).join('\n');
    expect(user).toContain('Relevant memories from earlier work');
    expect(user).toContain('Solar panel installation costs about 2.60 per watt in 2026');
    expect(user).not.toContain('must never leak');
    // The recall belongs to the task's span, before the agent starts.
    const task = events.find((e) => e.type === 'task.started')!;
    expect(recall!.spanId).toBe(task.spanId);
    expect(events.indexOf(recall!)).toBeLessThan(events.findIndex((e) => e.type === 'agent.started'));
  });

  it('recalls nothing when the crew has no memory, or the agent opts out', async () => {
    for (const doc of [solarCrew(false), solarCrew(true, false)]) {
      const { events } = await runCrew(doc, { workspace: ws });
      expect(events.some((e) => e.type === 'memory.recall')).toBe(false);
      const prompt = events.find((e): e is EventOf<'llm.started'> => e.type === 'llm.started')!;
      expect(JSON.stringify(prompt.messages)).not.toContain('2.60 per watt');
    }
  });

  it('a forgotten memory is not recalled by later runs; resetting a scope leaves other scopes alone', async () => {
    await memory.forget({ ids: [ids.pricing!] });
    const afterForget = await runCrew(solarCrew(true), { workspace: ws, memory });
    const recalled = afterForget.events.filter((e): e is EventOf<'memory.recall'> => e.type === 'memory.recall').flatMap((e) => e.records.map((r) => r.id));
    expect(recalled).not.toContain(ids.pricing);

    // `crewdeck memory reset --scope` and the browser's reset go through forget by scope.
    // The Writer's record below the scope, and what the run just remembered of its output.
    expect(await memory.forget({ scope: '/crew/solar-crew' })).toBe(2);
    expect((await memory.list({ includePrivate: true })).map((r) => r.id)).toEqual([ids.other]);
  });

  it('leaves unrelated memories out of the prompt', async () => {
    await memory.add([{ content: 'Tickets cost 40 euros', scope: '/crew/solar-crew', source: { kind: 'manual' }, importance: 1 }]);
    const { events } = await runCrew(solarCrew(true), { workspace: ws, memory });
    const recall = events.find((e): e is EventOf<'memory.recall'> => e.type === 'memory.recall')!;
    expect(recall.records.map((r) => r.content)).not.toContain('Tickets cost 40 euros');
    expect(recall.records.map((r) => r.id)).toContain(ids.pricing);
  });
});

