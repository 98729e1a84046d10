import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { crew, ofType, runCrew, scripted, tempWorkspace } from '../support/crewHarness';
import { trustWorkspace } from '../support/trustWorkspace';
import { ScriptedHuman } from '../support/scriptedHuman';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

function oneTask(llm: Record<string, unknown>, agent: Record<string, unknown> = {}, task: Record<string, unknown> = {}) {
  return crew({
    agents: [{ id: 'a', role: 'Solver', goal: 'solve', llm, tools: [{ tool: 'calculator' }], ...agent }],
    tasks: [{ id: 't', description: 'What is 6 * 7?', expectedOutput: 'a number', agentId: 'a', ...task }],
  });
}

describe('agent executor', () => {
  it('completes a task with native tool calls', async () => {
    const llm = scripted({
      rules: [
        { when: { lastRole: 'user' }, reply: { toolCalls: [{ name: 'calculator', arguments: { expression: '6 * 7' } }] } },
        { when: { lastRole: 'tool', last: '42' }, reply: 'It is 42.' },
      ],
    });
    const { result, events, ws } = await runCrew(oneTask(llm));
    cleanups.push(ws.remove);
    expect(result.output).toBe('It is 42.');
    expect(ofType(events, 'agent.started')[0]!.mode).toBe('native');
    expect(ofType(events, 'tool.completed')[0]).toMatchObject({ tool: 'calculator', result: '42' });
    const second = ofType(events, 'llm.started')[1];
    expect(second!.tools.map((t) => t.name)).toEqual(['calculator']);
    expect(second!.messages.at(-1)).toMatchObject({ role: 'tool', content: '42' });
  });

  it('completes a task with the ReAct protocol when native tools are off', async () => {
    const llm = scripted(
      {
        rules: [
          { when: { lastRole: 'user', last: 'Current task' }, reply: 'Thought: I should compute.\nAction: calculator\nAction Input: {"expression": "6 * 7"}' },
          { when: { last: 'Observation: 42' }, reply: 'Thought: I now know the final answer\nFinal Answer: 42' },
        ],
      },
      'react',
      { nativeTools: false },
    );
    const { result, events, ws } = await runCrew(oneTask(llm));
    cleanups.push(ws.remove);
    expect(result.output).toBe('42');
    expect(ofType(events, 'agent.started')[0]!.mode).toBe('react');
    const first = ofType(events, 'llm.started')[0];
    expect(first!.tools).toEqual([]); // tools are described in the prompt, not sent natively
    expect(first!.messages[0]!.content).toContain('Action Input: the arguments as a JSON object');
  });

  it('prefers the final answer when a ReAct reply holds both an action and a final answer', async () => {
    const llm = scripted({ default: 'Action: calculator\nAction Input: {"expression": "1+1"}\nFinal Answer: done already' }, 'both', { nativeTools: false });
    const { result, events, ws } = await runCrew(oneTask(llm));
    cleanups.push(ws.remove);
    expect(result.output).toBe('done already');
    expect(ofType(events, 'tool.started')).toHaveLength(0);
  });

  it('recovers from a malformed ReAct reply, repairs sloppy JSON and recovers from an unknown tool', async () => {
    const llm = scripted(
      {
        sequence: [
          'Thought: I need a calculation.\nAction: calculator\nAction Input: 6 * 7', // an action whose input is no JSON object
          "Action: abacus\nAction Input: {'expression': '6 * 7'}", // unknown tool
          "Thought: use the right tool\nAction: Calculator\nAction Input: {'expression': '6 * 7',}", // case + sloppy JSON
          'Final Answer: 42',
        ],
      },
      'sloppy',
      { nativeTools: false },
    );
    const { result, events, ws } = await runCrew(oneTask(llm));
    cleanups.push(ws.remove);
    expect(result.output).toBe('42');
    const calls = ofType(events, 'llm.started');
    expect(calls[1]!.messages.at(-1)!.content).toContain('Invalid format: Action Input for "calculator" is not a JSON object');
    expect(calls[2]!.messages.at(-1)!.content).toContain('tool "abacus" does not exist. Available tools: calculator');
    expect(ofType(events, 'tool.failed')[0]).toMatchObject({ tool: 'abacus' });
    expect(ofType(events, 'tool.completed')[0]).toMatchObject({ tool: 'calculator', result: '42' });
  });

  it('a ReAct reply in neither format is the final answer as written, not re-prompted (CrewAI 1.x)', async () => {
    const reply = 'Thought: this needs no tool.\nSix times seven is 42.';
    const llm = scripted({ sequence: [reply, 'Final Answer: a second reply that must not be asked for'] }, 'plain', { nativeTools: false });
    const { result, events, ws } = await runCrew(oneTask(llm));
    cleanups.push(ws.remove);
    expect(result.output).toBe(reply);
    expect(ofType(events, 'agent.started')[0]!.mode).toBe('react');
    expect(ofType(events, 'llm.started')).toHaveLength(1);
    expect(ofType(events, 'agent.completed')[0]).toMatchObject({ output: reply, iterations: 1 });
  });

  it('an agent without tools reads the final answer out of a ReAct-shaped reply; plain prose is the answer as it is', async () => {
    const noTools = (replies: string[]) => oneTask(scripted({ sequence: replies }, 'none'), { tools: [] });
    const shaped = await runCrew(noTools(['Thought: I now can give a great answer\nFinal Answer: 42']));
    cleanups.push(shaped.ws.remove);
    expect(ofType(shaped.events, 'agent.started')[0]!.mode).toBe('none');
    expect(shaped.result.output).toBe('42');
    expect(shaped.result.tasks[0]!.raw).toBe('42');
    expect(ofType(shaped.events, 'llm.started')).toHaveLength(1);

    const plain = await runCrew(noTools(['It is 42, since 6 * 7 = 42.']));
    cleanups.push(plain.ws.remove);
    expect(plain.result.output).toBe('It is 42, since 6 * 7 = 42.');

    // An action written by an agent that has no tools gets an observation saying so, then it answers.
    const acting = await runCrew(noTools(['Action: calculator\nAction Input: {"expression": "6*7"}', 'Final Answer: 42']));
    cleanups.push(acting.ws.remove);
    expect(acting.result.output).toBe('42');
    expect(ofType(acting.events, 'tool.failed')[0]).toMatchObject({ tool: 'calculator', error: expect.stringContaining('you have no tools') });
    expect(ofType(acting.events, 'llm.started')[1]!.messages.at(-1)!.content).toMatch(/^Observation: Error: tool "calculator" does not exist: you have no tools/);
  });

  it('falls back to ReAct when the model says it does not support tools', async () => {
    const llm = scripted({
      rules: [
        { when: { hasTools: true }, reply: { error: { status: 400, code: 'tools_unsupported', message: 'this model does not support tools' } } },
        { when: { last: 'Observation: 42' }, reply: 'Final Answer: 42' },
        { when: { hasTools: false }, reply: 'Action: calculator\nAction Input: {"expression": "6*7"}' },
      ],
    });
    const { result, events, ws } = await runCrew(oneTask(llm));
    cleanups.push(ws.remove);
    expect(result.output).toBe('42');
    expect(ofType(events, 'llm.failed')[0]!.error).toContain('does not support tools');
  });

  it('forces a final answer when maxIter is reached', async () => {
    const llm = scripted({
      rules: [
        { when: { last: 'maximum number of steps' }, reply: 'Best answer so far: 42' },
        { when: {}, reply: { toolCalls: [{ name: 'calculator', arguments: { expression: '1 + 1' } }] } },
      ],
    });
    const { result, events, ws } = await runCrew(oneTask(llm, { maxIter: 3, cache: false }));
    cleanups.push(ws.remove);
    expect(result.output).toBe('Best answer so far: 42');
    const calls = ofType(events, 'llm.started');
    expect(calls.map((c) => c.purpose)).toEqual(['agent', 'agent', 'agent', 'forced_answer']);
    expect(calls[3]!.tools).toEqual([]);
    expect(ofType(events, 'agent.completed')[0]!.iterations).toBe(4);
  });

  it('a before-hook can block a tool call; the agent reads a blocked observation', async () => {
    const llm = scripted({
      rules: [
        { when: { lastRole: 'user' }, reply: { toolCalls: [{ name: 'calculator', arguments: { expression: '6 * 7' } }] } },
        { when: { lastRole: 'tool' }, reply: 'I could not calculate.' },
      ],
    });
    const { result, events, ws } = await runCrew(oneTask(llm), {
      hooks: { before: [(call) => (call.tool === 'calculator' ? { block: 'calculators are not allowed in this exam' } : undefined)] },
    });
    cleanups.push(ws.remove);
    expect(result.output).toBe('I could not calculate.');
    expect(ofType(events, 'tool.blocked')[0]).toMatchObject({ tool: 'calculator', by: 'hook', reason: 'calculators are not allowed in this exam' });
    expect(ofType(events, 'llm.started')[1]!.messages.at(-1)!.content).toBe('Tool call blocked: calculators are not allowed in this exam');
    expect(ofType(events, 'tool.completed')).toHaveLength(0);
  });

  it('a ReAct call that was blocked is not remembered as a repeat: the same call again runs', async () => {
    const act = 'Action: calculator\nAction Input: {"expression": "6 * 7"}';
    const llm = scripted({ sequence: [act, act, act, 'Final Answer: 42'] }, 'retry', { nativeTools: false });
    let calls = 0;
    const { result, events, ws } = await runCrew(oneTask(llm, { cache: false }), {
      hooks: { before: [() => (++calls === 1 ? { block: 'try again in a moment' } : undefined)] },
    });
    cleanups.push(ws.remove);
    expect(result.output).toBe('42');
    // Blocked by the hook, then run, then refused as the repeat of the call that ran.
    expect(ofType(events, 'tool.blocked').map((e) => e.by)).toEqual(['hook', 'repeated_call']);
    expect(ofType(events, 'tool.completed').map((e) => e.result)).toEqual(['42']);
    expect(calls).toBe(2); // the refused repeat never reached the gate
  });

  it('asks for approval of a tool marked requiresApproval', async () => {
    const llm = scripted({
      rules: [
        { when: { lastRole: 'user' }, reply: { toolCalls: [{ name: 'calculator', arguments: { expression: '6 * 7' } }] } },
        { when: { lastRole: 'tool' }, reply: 'done' },
      ],
    });
    const human = new ScriptedHuman([], ['deny']);
    const { events, ws } = await runCrew(oneTask(llm, { tools: [{ tool: 'calculator', requiresApproval: true }] }), { human });
    cleanups.push(ws.remove);
    expect(human.approvals[0]).toMatchObject({ tool: 'calculator', agentRole: 'Solver', args: { expression: '6 * 7' } });
    expect(ofType(events, 'human.requested')[0]).toMatchObject({ kind: 'tool_approval', tool: 'calculator' });
    expect(ofType(events, 'tool.blocked')[0]).toMatchObject({ by: 'approval' });
  });

  it('ends the loop with a resultAsAnswer tool output', async () => {
    const llm = scripted({ default: { toolCalls: [{ name: 'calculator', arguments: { expression: '6 * 7' } }] } });
    const { result, events, ws } = await runCrew(oneTask(llm, { tools: [{ tool: 'calculator', resultAsAnswer: true }] }));
    cleanups.push(ws.remove);
    expect(result.output).toBe('42');
    expect(ofType(events, 'llm.started')).toHaveLength(1);
  });

  it('summarises older messages when the context window is exceeded, then continues', async () => {
    const llm = scripted({
      rules: [
        { when: { system: 'You summarise' }, reply: 'Summary: the calculator said 42.' },
        { when: { any: 'Summary of your work on this task so far' }, reply: 'The answer is 42.' },
        { when: { lastRole: 'tool' }, reply: { error: { status: 400, code: 'context_length_exceeded', message: "This model's maximum context length is 8 tokens" } } },
        { when: { lastRole: 'user' }, reply: { toolCalls: [{ name: 'calculator', arguments: { expression: '6 * 7' } }] } },
      ],
    });
    const { result, events, ws } = await runCrew(oneTask(llm));
    cleanups.push(ws.remove);
    expect(result.output).toBe('The answer is 42.');
    expect(ofType(events, 'llm.started').map((e) => e.purpose)).toEqual(['agent', 'agent', 'summarise', 'agent']);
    const last = ofType(events, 'llm.started').at(-1)!;
    expect(last.messages).toHaveLength(3); // system, task, summary
    expect(last.messages[2]!.content).toContain('Summary: the calculator said 42.');
  });

  it('fails clearly when the context window is exceeded and respectContextWindow is off', async () => {
    const llm = scripted({ default: { error: { status: 400, code: 'context_length_exceeded', message: 'too many tokens' } } });
    const { result, events, ws } = await runCrew(oneTask(llm, { respectContextWindow: false }));
    cleanups.push(ws.remove);
    expect(result.status).toBe('failed');
    expect(result.error?.name).toBe('ContextWindowExceeded');
    expect(ofType(events, 'task.failed')[0]!.error).toContain('respectContextWindow is off');
  });

  it('aborts an agent that runs past maxExecutionTimeMs', async () => {
    const llm = scripted({ default: { content: 'late', delayMs: 2000 } });
    const { result, events, ws } = await runCrew(oneTask(llm, { maxExecutionTimeMs: 100 }));
    cleanups.push(ws.remove);
    expect(result.status).toBe('failed');
    expect(ofType(events, 'agent.failed')[0]).toMatchObject({ errorName: 'AgentTimeout' });
    expect(result.error?.message).toContain('maximum execution time of 100 ms');
    // The 2 s reply was cut off, not waited for and then thrown away.
    expect(ofType(events, 'llm.completed')).toHaveLength(0);
  });

  it('reports AgentTimeout when the time runs out during a tool call', async () => {
    const server = http.createServer((_req, res) => setTimeout(() => res.end('slow answer'), 3000));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => {
      server.closeAllConnections();
      server.close();
    });
    const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
    const url = `http://${host}/`;
    const llm = scripted({ default: { toolCalls: [{ name: 'http_request', arguments: { url } }] } });
    // Loopback is reached only when listed (the network policy).
    const tools = [{ tool: 'http_request', config: { allowedHosts: [host] } }];
    const doc = oneTask(llm, { maxExecutionTimeMs: 200, tools });
    const ws = tempWorkspace();
    cleanups.push(ws.remove);
    // allowedHosts names a loopback host: the user trusts it (test/security/untrustedNetworkReach.test.ts).
    trustWorkspace(ws.dir, undefined, [doc]);
    const { result, events } = await runCrew(doc, { workspace: ws });
    expect(result.error).toEqual({ name: 'AgentTimeout', message: 'agent "Solver" exceeded its maximum execution time of 200 ms' });
    expect(ofType(events, 'tool.failed')[0]).toMatchObject({ tool: 'http_request' });
    // The 3 s answer was cut off, not waited for.
    expect(ofType(events, 'tool.completed')).toHaveLength(0);
  });

  it('loops on human feedback until the human accepts', async () => {
    const llm = scripted({
      rules: [
        { when: { last: 'make it shorter' }, reply: '42' },
        { when: {}, reply: 'The product of six and seven is forty-two, which is 42.' },
      ],
    });
    const human = new ScriptedHuman(['make it shorter', '']);
    const { result, events, ws } = await runCrew(oneTask(llm, { tools: [] }, { humanInput: true }), { human });
    cleanups.push(ws.remove);
    expect(result.output).toBe('42');
    expect(human.reviews.map((r) => r.output)).toEqual(['The product of six and seven is forty-two, which is 42.', '42']);
    expect(ofType(events, 'human.answered').map((e) => e.feedback)).toEqual(['make it shorter', '']);
    const revision = ofType(events, 'llm.started')[1]!.messages;
    expect(revision.at(-2)).toMatchObject({ role: 'assistant', content: 'The product of six and seven is forty-two, which is 42.' });
  });

  it('cancels a run from outside and records run.cancelled', async () => {
    const llm = scripted({ default: { content: 'slow', delayMs: 5000 } });
    const { createRuntime } = await import('../../runtime/runtime');
    const ws = tempWorkspace();
    cleanups.push(ws.remove);
    const controller = new AbortController();
    const runtime = createRuntime({ workspace: ws.dir, store: ws.store });
    const pending = runtime.runCrew(oneTask(llm, { tools: [] }), { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('user pressed stop')), 50);
    const result = await pending;
    expect(result.status).toBe('cancelled');
    const stored = ws.store.getRun(result.runId)!;
    expect(stored.status).toBe('cancelled');
    expect(ws.store.events(result.runId).at(-1)!.type).toBe('run.cancelled');
  });
});
