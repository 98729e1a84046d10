import { afterEach, describe, expect, it } from 'vitest';
import { agentPrompts, crew, ofType, runCrew, scripted } from '../support/crewHarness';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

function managerScript(coworker: string) {
  return scripted(
    {
      rules: [
        {
          when: { system: 'You are Crew Manager.', lastRole: 'user' },
          reply: { toolCalls: [{ name: 'delegate_work', arguments: { coworker, task: 'Compute 6 * 7', context: 'We need the product.' } }] },
        },
        { when: { system: 'You are Crew Manager.', lastRole: 'tool', last: 'Error' }, reply: { toolCalls: [{ name: 'delegate_work', arguments: { coworker: 'Math Whiz', task: 'Compute 6 * 7', context: 'retrying' } }] } },
        { when: { system: 'You are Crew Manager.', lastRole: 'tool' }, reply: 'The answer is 42.' },
      ],
    },
    'manager',
  );
}

const whiz = scripted(
  {
    rules: [
      { when: { system: 'You are Math Whiz.', lastRole: 'user' }, reply: { toolCalls: [{ name: 'calculator', arguments: { expression: '6 * 7' } }] } },
      { when: { system: 'You are Math Whiz.', lastRole: 'tool' }, reply: '6 * 7 = 42' },
    ],
  },
  'whiz',
);
const scribe = scripted({ default: 'I only write prose.' }, 'scribe');

function launchCrew(coworker: string, extra: Record<string, unknown> = {}) {
  return crew({
    process: 'hierarchical',
    manager: { llm: managerScript(coworker) },
    agents: [
      { id: 'whiz', role: 'Math Whiz', goal: 'compute things', llm: whiz, tools: [{ tool: 'calculator' }] },
      { id: 'scribe', role: 'Scribe', goal: 'write things', llm: scribe },
    ],
    tasks: [{ id: 'calc', description: 'Find the product of six and seven', expectedOutput: 'a number', agentId: 'whiz' }],
    ...extra,
  });
}

describe('hierarchical crews', () => {
  it('the manager delegates to the coworker, who uses its own tool', async () => {
    const { result, events, ws } = await runCrew(launchCrew('Math Whiz'));
    cleanups.push(ws.remove);
    expect(result.status).toBe('completed');
    expect(result.output).toBe('The answer is 42.');
    // The manager executes the task even though it names an agent.
    expect(ofType(events, 'task.started')[0]!.agentRole).toBe('Crew Manager');
    const [started] = ofType(events, 'delegation.started');
    expect(started).toMatchObject({ manager: 'Crew Manager', coworker: 'Math Whiz', task: 'Compute 6 * 7', context: 'We need the product.' });
    const [completed] = ofType(events, 'delegation.completed');
    expect(completed).toMatchObject({ manager: 'Crew Manager', coworker: 'Math Whiz', result: '6 * 7 = 42' });
    expect(completed!.spanId).toBe(started!.spanId);
    // The coworker's tool call nests under the delegation and is the coworker's own.
    const calc = ofType(events, 'tool.started').find((e) => e.tool === 'calculator')!;
    expect(calc.agentRole).toBe('Math Whiz');
    const coworkerAgent = ofType(events, 'agent.started').find((e) => e.role === 'Math Whiz')!;
    expect(coworkerAgent.parentSpanId).toBe(started!.spanId);
    expect(coworkerAgent.delegatedBy).toBe('Crew Manager');
    expect(calc.parentSpanId).toBe(coworkerAgent.spanId);
    // The coworker got a fresh task built from the delegated text, not the manager's transcript.
    const coworkerPrompt = agentPrompts(events, 'Math Whiz')[0];
    expect(coworkerPrompt).toContain('Current task: Compute 6 * 7');
    expect(coworkerPrompt).toContain('We need the product.');
    expect(coworkerPrompt).not.toContain('Find the product of six and seven');
    // Delegation goes through the policy gate like any tool.
    expect(ofType(events, 'tool.completed').find((e) => e.tool === 'delegate_work')?.result).toBe('6 * 7 = 42');
  });

  it('resolves a coworker role written with other case, quotes and spacing, or slightly misspelt', async () => {
    for (const spelling of ['  math   WHIZ ', '"Math Whiz"', 'Math Wiz']) {
      const { result, events, ws } = await runCrew(launchCrew(spelling));
      cleanups.push(ws.remove);
      expect(result.status).toBe('completed');
      expect(ofType(events, 'delegation.started')[0]).toMatchObject({ coworker: 'Math Whiz', requestedCoworker: spelling });
    }
  });

  it('an unknown coworker gets an observation listing the valid roles, and the run completes', async () => {
    const { result, events, ws } = await runCrew(launchCrew('Astronaut'));
    cleanups.push(ws.remove);
    expect(result.status).toBe('completed');
    const [failed] = ofType(events, 'delegation.failed');
    expect(failed).toMatchObject({ manager: 'Crew Manager', requestedCoworker: 'Astronaut', validRoles: ['Math Whiz'] });
    // Recipients follow CrewAI's rule: only the task's assigned agent.
    const toolMessage = ofType(events, 'llm.started')
      .filter((e) => e.agentRole === 'Crew Manager')[1]!
      .messages.find((m) => m.role === 'tool')!;
    expect(toolMessage.content).toContain('there is no coworker "Astronaut"');
    expect(toolMessage.content).toContain('"Math Whiz"');
    expect(ofType(events, 'delegation.completed')).toHaveLength(1);
  });

  it('delegateTo "all" widens the recipients to every worker', async () => {
    const { events, ws } = await runCrew(launchCrew('Scribe', { manager: { llm: managerScript('Scribe'), delegateTo: 'all' } }));
    cleanups.push(ws.remove);
    expect(ofType(events, 'delegation.completed')[0]).toMatchObject({ coworker: 'Scribe', result: 'I only write prose.' });
    const tools = ofType(events, 'llm.started').find((e) => e.agentRole === 'Crew Manager')!.tools;
    expect(tools.find((t) => t.name === 'delegate_work')!.description).toContain('"Scribe"');
  });

  it('an error inside the coworker becomes an observation and the manager carries on', async () => {
    const broken = scripted({ default: { error: { status: 400, message: 'model exploded' } } }, 'broken');
    const doc = launchCrew('Math Whiz', {
      manager: {
        llm: scripted({ rules: [
          { when: { lastRole: 'user' }, reply: { toolCalls: [{ name: 'delegate_work', arguments: { coworker: 'Math Whiz', task: 'Compute 6 * 7' } }] } },
          { when: { lastRole: 'tool', last: 'could not finish' }, reply: 'The whiz is down; I worked it out myself: 42.' },
        ] }, 'manager-2'),
      },
      agents: [
        { id: 'whiz', role: 'Math Whiz', goal: 'compute', llm: broken },
        { id: 'scribe', role: 'Scribe', goal: 'write', llm: scribe },
      ],
    });
    const { result, events, ws } = await runCrew(doc);
    cleanups.push(ws.remove);
    expect(result.output).toBe('The whiz is down; I worked it out myself: 42.');
    const failures = ofType(events, 'delegation.failed');
    expect(failures.length).toBeGreaterThan(0);
    expect(failures[0]!.error).toContain('model exploded');
  });

  it('a user agent can be the manager', async () => {
    const doc = crew({
      process: 'hierarchical',
      manager: { agentId: 'boss' },
      agents: [
        { id: 'boss', role: 'Boss', goal: 'run the team', llm: scripted({ rules: [
          { when: { lastRole: 'user' }, reply: { toolCalls: [{ name: 'ask_question', arguments: { coworker: 'Math Whiz', question: 'What is 6 * 7?' } }] } },
          { when: { lastRole: 'tool' }, reply: 'Whiz says 42.' },
        ] }, 'boss') },
        { id: 'whiz', role: 'Math Whiz', goal: 'compute things', llm: whiz, tools: [{ tool: 'calculator' }] },
      ],
      tasks: [{ id: 'calc', description: 'Get the product', expectedOutput: 'a number' }],
    });
    const { result, events, ws } = await runCrew(doc);
    cleanups.push(ws.remove);
    expect(result.output).toBe('Whiz says 42.');
    expect(ofType(events, 'delegation.started')[0]).toMatchObject({ kind: 'ask', manager: 'Boss', coworker: 'Math Whiz' });
  });

  it('agents with allowDelegation can delegate in a sequential crew', async () => {
    const doc = crew({
      agents: [
        { id: 'lead', role: 'Lead', goal: 'lead', allowDelegation: true, llm: scripted({ rules: [
          { when: { lastRole: 'user' }, reply: { toolCalls: [{ name: 'delegate_work', arguments: { coworker: 'math whiz', task: 'Compute 6 * 7' } }] } },
          { when: { lastRole: 'tool' }, reply: 'Lead reports 42.' },
        ] }, 'lead') },
        { id: 'whiz', role: 'Math Whiz', goal: 'compute things', llm: whiz, tools: [{ tool: 'calculator' }] },
      ],
      tasks: [{ id: 't', description: 'Get the product', expectedOutput: 'a number', agentId: 'lead' }],
    });
    const { result, events, ws } = await runCrew(doc);
    cleanups.push(ws.remove);
    expect(result.output).toBe('Lead reports 42.');
    expect(ofType(events, 'delegation.completed')[0]).toMatchObject({ manager: 'Lead', coworker: 'Math Whiz' });
  });
  it('delegated work may delegate once more (depth 2) but the coworker at the depth limit cannot delegate again', async () => {
    // Each agent hands the work to the next one when it can; the one at the limit tries anyway.
    const relay = (role: string, next: string) =>
      scripted({ rules: [
        { when: { system: `You are ${role}.`, lastRole: 'user' }, reply: { toolCalls: [{ name: 'delegate_work', arguments: { coworker: next, task: `Pass it on from ${role}` } }] } },
        { when: { system: `You are ${role}.`, lastRole: 'tool', last: 'does not exist' }, reply: `${role} was refused` },
        { when: { system: `You are ${role}.`, lastRole: 'tool' }, reply: `${role} relayed` },
      ] }, role);
    const doc = crew({
      agents: [
        { id: 'lead', role: 'Lead', goal: 'lead', allowDelegation: true, llm: relay('Lead', 'First') },
        { id: 'first', role: 'First', goal: 'relay', allowDelegation: true, llm: relay('First', 'Second') },
        // A tool of its own, so a call to a tool it lacks is answered with an observation.
        { id: 'second', role: 'Second', goal: 'relay', allowDelegation: true, llm: relay('Second', 'Third'), tools: [{ tool: 'calculator' }] },
        { id: 'third', role: 'Third', goal: 'relay', allowDelegation: true, llm: relay('Third', 'Lead') },
      ],
      tasks: [{ id: 't', description: 'Relay the work', expectedOutput: 'a note', agentId: 'lead' }],
    });
    const { result, events, ws } = await runCrew(doc);
    cleanups.push(ws.remove);
    expect(result.status).toBe('completed');
    const toolsOf = (role: string) => ofType(events, 'llm.started').find((e) => e.agentRole === role)!.tools.map((t) => t.name);
    // Depth 1 (First) is below the limit: it may still delegate, and does, to Second at depth 2.
    expect(toolsOf('First')).toContain('delegate_work');
    // Depth 2 (Second) is at the limit: no delegation tools, so its attempt is refused.
    expect(toolsOf('Second')).not.toContain('delegate_work');
    expect(toolsOf('Second')).not.toContain('ask_question');
    expect(ofType(events, 'delegation.started').map((e) => `${e.manager}->${e.coworker}`)).toEqual(['Lead->First', 'First->Second']);
    expect(ofType(events, 'delegation.completed').map((e) => e.result)).toEqual(['Second was refused', 'First relayed']);
    expect(ofType(events, 'agent.started').map((e) => e.role)).not.toContain('Third');
    expect(result.output).toBe('Lead relayed');
  });
});
