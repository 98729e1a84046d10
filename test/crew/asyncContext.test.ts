import { afterEach, describe, expect, it } from 'vitest';
import { agentPrompts, crew, runCrew, scripted } from '../support/crewHarness';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

const echoModel = scripted({
  rules: [
    { when: { system: 'You are Alpha.' }, reply: 'ALPHA-OUTPUT' },
    { when: { system: 'You are Beta.' }, reply: 'BETA-OUTPUT' },
    { when: { system: 'You are Gamma.' }, reply: 'GAMMA-OUTPUT' },
    { when: { system: 'You are Delta.' }, reply: 'DELTA-OUTPUT' },
  ],
});
const agents = ['Alpha', 'Beta', 'Gamma', 'Delta'].map((role) => ({ id: role.toLowerCase(), role, goal: `be ${role}`, llm: echoModel }));

describe('context of an async task without an explicit context (CrewAI rule)', () => {
  it('gets only the last synchronous output: after two sync tasks, exactly the second one', async () => {
    const doc = crew({
      agents,
      tasks: [
        { id: 'first', description: 'first', expectedOutput: 'x', agentId: 'alpha' },
        { id: 'second', description: 'second', expectedOutput: 'x', agentId: 'beta' },
        { id: 'background', description: 'in the background', expectedOutput: 'x', agentId: 'gamma', async: true },
        { id: 'last', description: 'last', expectedOutput: 'x', agentId: 'delta' },
      ],
    });
    const { result, events, ws } = await runCrew(doc);
    cleanups.push(ws.remove);
    expect(result.status).toBe('completed');
    const [gamma] = agentPrompts(events, 'Gamma');
    expect(gamma).toContain('BETA-OUTPUT');
    expect(gamma).not.toContain('ALPHA-OUTPUT');
    // A synchronous task without a context still gets every earlier output, the async one included.
    const [delta] = agentPrompts(events, 'Delta');
    expect(delta).toContain('ALPHA-OUTPUT');
    expect(delta).toContain('BETA-OUTPUT');
    expect(delta).toContain('GAMMA-OUTPUT');
  });

  it('an async task first in the crew gets no context; an explicit context is still honoured', async () => {
    const doc = crew({
      agents,
      tasks: [
        { id: 'early', description: 'early', expectedOutput: 'x', agentId: 'gamma', async: true },
        { id: 'first', description: 'first', expectedOutput: 'x', agentId: 'alpha' },
        { id: 'second', description: 'second', expectedOutput: 'x', agentId: 'beta' },
        { id: 'picked', description: 'picked', expectedOutput: 'x', agentId: 'delta', async: true, context: ['first'] },
      ],
    });
    const { result, events, ws } = await runCrew(doc);
    cleanups.push(ws.remove);
    expect(result.status).toBe('completed');
    expect(agentPrompts(events, 'Gamma')[0]).not.toMatch(/OUTPUT/);
    const [delta] = agentPrompts(events, 'Delta');
    expect(delta).toContain('ALPHA-OUTPUT');
    expect(delta).not.toContain('BETA-OUTPUT');
  });
});
