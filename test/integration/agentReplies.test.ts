import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { crew, ofType, runCrew, tempWorkspace } from '../support/crewHarness';
import { trustWorkspace } from '../support/trustWorkspace';
import { startScriptedServer, type ScriptedServer } from '../support/scriptedServer';

/**
 * How an agent's replies are read, through the real `openai` SDK against the scripted OpenAI-compatible
 * server, with the run stored in real SQLite: the final-answer reader for agents with and without tools.
 */

let server: ScriptedServer;
const workspaces: ReturnType<typeof tempWorkspace>[] = [];

beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(() => server.close());
afterEach(() => {
  const left = server.queued;
  server.requests.length = 0;
  for (const ws of workspaces.splice(0)) ws.remove();
  expect(left, 'every queued server reply was used').toBe(0);
});

const chatRequests = () => server.requests.filter((r) => r.path === '/v1/chat/completions');

function model(extra: Record<string, unknown> = {}) {
  return { provider: 'openai' as const, model: 'scripted-gpt', stream: false, ...extra };
}

async function run(doc: ReturnType<typeof crew>) {
  const workspace = tempWorkspace('crewdeck-replies-');
  workspaces.push(workspace);
  trustWorkspace(workspace.dir, undefined, [doc]);
  return runCrew(doc, { workspace, env: { OPENAI_API_KEY: 'integration-key', OPENAI_BASE_URL: server.baseUrl } });
}

describe('reading an agent reply', () => {
  it('an agent without tools: "Thought: …\\nFinal Answer: X" gives X, to the next task and the crew output', async () => {
    server.enqueue(
      { content: 'Thought: I now can give a great answer\nFinal Answer: Oslo is the capital of Norway.', usage: { prompt_tokens: 50, completion_tokens: 15 } },
      { content: 'Thought: I now can give a great answer\nFinal Answer: Oslo er hovedstaden i Norge.', usage: { prompt_tokens: 70, completion_tokens: 12 } },
    );
    const { result, events, ws } = await run(
      crew({
        agents: [
          { id: 'w', role: 'Writer', goal: 'Write', llm: model() },
          { id: 't', role: 'Translator', goal: 'Translate', llm: model() },
        ],
        tasks: [
          { id: 'fact', description: 'State the capital of Norway', expectedOutput: 'One sentence', agentId: 'w' },
          { id: 'translate', description: 'Translate it into Norwegian', expectedOutput: 'One sentence', agentId: 't' },
        ],
      }),
    );

    expect(result.status, JSON.stringify(result.error)).toBe('completed');
    expect(ofType(events, 'agent.started').map((e) => e.mode)).toEqual(['none', 'none']);
    expect(result.tasks.map((t) => t.raw)).toEqual(['Oslo is the capital of Norway.', 'Oslo er hovedstaden i Norge.']);
    expect(result.output).toBe('Oslo er hovedstaden i Norge.');
    expect(ws.store.taskOutputs(result.runId).map((o) => o.raw)).toEqual(['Oslo is the capital of Norway.', 'Oslo er hovedstaden i Norge.']);
    // The next task's context holds the answer, not the preamble.
    const second = chatRequests()[1]!.body.messages as { role: string; content: string }[];
    const prompt = second.find((m) => m.role === 'user')!.content;
    expect(prompt).toContain('Oslo is the capital of Norway.');
    expect(prompt).not.toContain('I now can give a great answer');
  });

  it('a ReAct agent: a reply in neither format is the final answer, with no second call', async () => {
    const reply = 'Six times seven is 42; no tool was needed for that.';
    server.enqueue({ content: reply, usage: { prompt_tokens: 60, completion_tokens: 14 } });
    const { result, events } = await run(
      crew({
        agents: [{ id: 'a', role: 'Solver', goal: 'Solve', llm: model({ nativeTools: false }), tools: [{ tool: 'calculator' }] }],
        tasks: [{ id: 't', description: 'What is 6 * 7?', expectedOutput: 'A number', agentId: 'a' }],
      }),
    );
    expect(result.status, JSON.stringify(result.error)).toBe('completed');
    expect(ofType(events, 'agent.started')[0]!.mode).toBe('react');
    expect(result.output).toBe(reply);
    expect(chatRequests()).toHaveLength(1);
  });

  it('a ReAct agent repeating the call it just made is refused with the note, without running the tool', async () => {
    const call = (input: string) => ({ content: `Thought: I will compute.\nAction: calculator\nAction Input: ${input}`, usage: { prompt_tokens: 40, completion_tokens: 10 } });
    server.enqueue(
      call('{"expression": "6 * 7"}'),
      call('{ "expression" : "6 * 7" }'), // the same input, written differently: refused
      call('{"expression": "6 * 8"}'), // another input runs
      call('{"expression": "6 * 7"}'), // not the call just before: runs again
      { content: 'Thought: I now know the final answer\nFinal Answer: 42 and 48', usage: { prompt_tokens: 90, completion_tokens: 8 } },
    );
    const { result, events } = await run(
      crew({
        agents: [{ id: 'a', role: 'Solver', goal: 'Solve', llm: model({ nativeTools: false }), tools: [{ tool: 'calculator' }], cache: false }],
        tasks: [{ id: 't', description: 'What are 6 * 7 and 6 * 8?', expectedOutput: 'Two numbers', agentId: 'a' }],
      }),
    );

    expect(result.status, JSON.stringify(result.error)).toBe('completed');
    expect(result.output).toBe('42 and 48');
    // The tool ran three times; the repeat shows as a tool call blocked as a repeated call.
    expect(ofType(events, 'tool.completed').map((e) => e.result)).toEqual(['42', '48', '42']);
    const blocked = ofType(events, 'tool.blocked');
    expect(blocked.map((e) => [e.tool, e.by])).toEqual([['calculator', 'repeated_call']]);
    const started = ofType(events, 'tool.started').find((e) => e.spanId === blocked[0]!.spanId);
    expect(started).toMatchObject({ tool: 'calculator', args: { expression: '6 * 7' }, agentRole: 'Solver' });
    // The model read the note as the observation of its repeated call.
    const third = chatRequests()[2]!.body.messages as { role: string; content: string }[];
    expect(third.at(-1)!.content).toMatch(/^Observation: I just used this tool with exactly this input.*I must not repeat this input/);
    expect(chatRequests()).toHaveLength(5);
  });

  it('a native tool call repeated is not refused (CrewAI checks repeats on its ReAct path only)', async () => {
    const call = { content: '', toolCalls: [{ name: 'calculator', arguments: { expression: '6 * 7' } }], usage: { prompt_tokens: 40, completion_tokens: 10 } };
    server.enqueue(call, call, { content: 'It is 42.', usage: { prompt_tokens: 60, completion_tokens: 5 } });
    const { result, events } = await run(
      crew({
        agents: [{ id: 'a', role: 'Solver', goal: 'Solve', llm: model(), tools: [{ tool: 'calculator' }], cache: false }],
        tasks: [{ id: 't', description: 'What is 6 * 7?', expectedOutput: 'A number', agentId: 'a' }],
      }),
    );
    expect(result.status, JSON.stringify(result.error)).toBe('completed');
    expect(ofType(events, 'agent.started')[0]!.mode).toBe('native');
    expect(ofType(events, 'tool.completed').map((e) => e.result)).toEqual(['42', '42']);
    expect(ofType(events, 'tool.blocked')).toHaveLength(0);
  });
});
