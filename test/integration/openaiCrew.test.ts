import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TokenUsage } from '../../shared/usage';
import { crew, ofType, runCrew, tempWorkspace } from '../support/crewHarness';
import { trustWorkspace } from '../support/trustWorkspace';
import { startScriptedServer, type ScriptedServer, type ServerReply } from '../support/scriptedServer';

/**
 * Crews on the `openai` provider, through the real `openai` SDK, against the scripted
 * OpenAI-compatible server.
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
  server.setHandler(undefined);
  for (const ws of workspaces.splice(0)) ws.remove();
  expect(left, 'every queued server reply was used').toBe(0);
});

const ENV = { OPENAI_API_KEY: 'integration-key' };

/** The server is reached the way a user points the openai provider at OpenAI itself: OPENAI_BASE_URL. */
function model(extra: Record<string, unknown> = {}) {
  return { provider: 'openai' as const, model: 'scripted-gpt', stream: false, ...extra };
}

/** Runs a crew in a fresh workspace with OPENAI_API_KEY and OPENAI_BASE_URL from the RuntimeOptions env. */
async function run(doc: ReturnType<typeof crew>) {
  const workspace = tempWorkspace('crewdeck-openai-');
  workspaces.push(workspace);
  trustWorkspace(workspace.dir, undefined, [doc]); // a model with apiKeyEnv and its own baseUrl waits for trust
  return runCrew(doc, { workspace, env: { ...ENV, OPENAI_BASE_URL: server.baseUrl } });
}

/** What the server reported for a reply, in the runtime's terms. */
function reported(replies: ServerReply[]): TokenUsage {
  const total: TokenUsage = { promptTokens: 0, completionTokens: 0, cachedPromptTokens: 0, totalTokens: 0, requests: 0 };
  for (const r of replies) {
    if (r.fault?.kind === '429' || r.fault?.kind === '500') continue;
    const u = r.usage!;
    total.promptTokens += u.prompt_tokens;
    total.completionTokens += u.completion_tokens;
    total.cachedPromptTokens += u.cached ?? 0;
    total.totalTokens += u.prompt_tokens + u.completion_tokens;
    total.requests += 1;
  }
  // The workspace prices no model "scripted-gpt": calls have no cost and say why.
  return total.requests > 0 ? { ...total, unpricedModels: ['openai:scripted-gpt'] } : total;
}

const chatRequests = () => server.requests.filter((r) => r.path === '/v1/chat/completions');

describe('an openai crew against the scripted server', () => {
  it('runs two tasks with a native tool call; token totals equal what the server reported', async () => {
    const task1 = [
      { content: '', toolCalls: [{ name: 'calculator', arguments: { expression: '6 * 7' } }], usage: { prompt_tokens: 120, completion_tokens: 12, cached: 40 } },
      { content: 'The answer is 42.', usage: { prompt_tokens: 160, completion_tokens: 9, cached: 100 } },
    ] satisfies ServerReply[];
    const task2 = [{ content: 'Forty-two, in words.', usage: { prompt_tokens: 90, completion_tokens: 7, cached: 0 } }] satisfies ServerReply[];
    server.enqueue(...task1, ...task2);

    const { result, events } = await run(
      crew({
        agents: [
          { id: 'calc', role: 'Calculator', goal: 'Compute', llm: model(), tools: [{ tool: 'calculator' }] },
          { id: 'writer', role: 'Writer', goal: 'Write', llm: model() },
        ],
        tasks: [
          { id: 'compute', description: 'Compute 6 times 7', expectedOutput: 'A number', agentId: 'calc' },
          { id: 'spell', description: 'Spell the number', expectedOutput: 'Words', agentId: 'writer' },
        ],
      }),
    );

    expect(result.status, JSON.stringify(result.error)).toBe('completed');
    expect(result.output).toBe('Forty-two, in words.');
    expect(result.tasks.map((t) => t.raw)).toEqual(['The answer is 42.', 'Forty-two, in words.']);

    // The real SDK sent the key, the tool schema, and then the tool result.
    const requests = chatRequests();
    expect(requests).toHaveLength(3);
    expect(requests[0]!.headers.authorization).toBe('Bearer integration-key');
    expect(requests[0]!.body.model).toBe('scripted-gpt');
    expect(requests[0]!.body.tools.map((t: { function: { name: string } }) => t.function.name)).toEqual(['calculator']);
    const toolMessage = (requests[1]!.body.messages as { role: string; content: string; tool_call_id?: string }[]).find((m) => m.role === 'tool');
    expect(toolMessage?.content).toBe('42');
    const assistant = (requests[1]!.body.messages as { role: string; tool_calls?: { id: string }[] }[]).find((m) => m.role === 'assistant');
    expect(toolMessage?.tool_call_id).toBe(assistant?.tool_calls?.[0]!.id);
    expect(requests[2]!.body).not.toHaveProperty('tools');
    expect(ofType(events, 'tool.completed').map((e) => [e.tool, e.result])).toEqual([['calculator', '42']]);

    // Totals, per task and per agent: exactly what the server reported.
    expect(result.tokenUsage).toEqual(reported([...task1, ...task2]));
    expect(result.tokenUsage).toEqual({ promptTokens: 370, completionTokens: 28, cachedPromptTokens: 140, totalTokens: 398, requests: 3, unpricedModels: ['openai:scripted-gpt'] });
    expect(result.usageByTask).toEqual({ compute: reported(task1), spell: reported(task2) });
    expect(result.usageByAgent).toEqual({ Calculator: reported(task1), Writer: reported(task2) });

    // The events agree: each llm.completed carries its request's usage, task.completed the task's sum.
    expect(ofType(events, 'llm.completed').map((e) => e.usage)).toEqual([...task1, ...task2].map((r) => reported([r])));
    const taskDone = ofType(events, 'task.completed');
    expect(Object.fromEntries(taskDone.map((e) => [e.taskId, e.tokenUsage]))).toEqual({ compute: reported(task1), spell: reported(task2) });
    expect(ofType(events, 'run.completed')[0]!.tokenUsage).toEqual(result.tokenUsage);

    // And the run store kept the same numbers.
    const ws = workspaces[0];
    expect(ws!.store.getRun(result.runId)?.tokenUsage).toEqual(result.tokenUsage);
    expect(ws!.store.taskOutputs(result.runId).map((o) => o.tokenUsage)).toEqual([reported(task1), reported(task2)]);
  });

  it('streams: llm.chunk events carry the reply and usage is still reported', async () => {
    // Streamed text is passed on a margin behind what arrived while a key is registered (a key split over
    // deltas is still cut): the reply is long enough to be passed on in several chunks before its end.
    const answer = Array.from({ length: 16 }, (_, i) => `Two plus two makes four, as computed (${i}).`).join(' ');
    const replies = [
      { content: '', toolCalls: [{ name: 'calculator', arguments: { expression: '2 + 2' } }], usage: { prompt_tokens: 50, completion_tokens: 6, cached: 10 } },
      { content: answer, usage: { prompt_tokens: 70, completion_tokens: 11, cached: 20 } },
    ] satisfies ServerReply[];
    server.enqueue(...replies);

    const { result, events } = await run(
      crew({
        agents: [{ id: 'a', role: 'Streamer', goal: 'Stream', llm: model({ stream: true }), tools: [{ tool: 'calculator' }] }],
        tasks: [{ id: 't', description: 'Add two and two', expectedOutput: 'A sentence', agentId: 'a' }],
      }),
    );

    expect(result.status, JSON.stringify(result.error)).toBe('completed');
    expect(result.output).toBe(answer);
    for (const request of chatRequests()) {
      expect(request.body.stream).toBe(true);
      expect(request.body.stream_options).toEqual({ include_usage: true });
    }
    // The streamed tool call was assembled from its argument pieces.
    expect(ofType(events, 'tool.completed').map((e) => e.result)).toEqual(['4']);

    const chunks = ofType(events, 'llm.chunk');
    expect(chunks.length).toBeGreaterThan(1);
    const lastLlm = ofType(events, 'llm.started').at(-1)!;
    const lastChunks = chunks.filter((c) => c.parentSpanId === lastLlm.spanId || c.spanId === lastLlm.spanId);
    expect(lastChunks.length).toBeGreaterThan(1);
    expect(lastChunks.map((c) => c.delta).join('')).toBe(answer);

    expect(result.tokenUsage).toEqual(reported(replies));
    expect(ofType(events, 'llm.completed').map((e) => e.usage)).toEqual(replies.map((r) => reported([r])));
  });

  it('retries a 429 (honouring Retry-After) and a 500, then completes', async () => {
    const replies = [
      { fault: { kind: '429', retryAfterSeconds: 1 } },
      { fault: { kind: '500' } },
      { content: 'Made it through.', usage: { prompt_tokens: 30, completion_tokens: 4, cached: 0 } },
    ] satisfies ServerReply[];
    server.enqueue(...replies);
    const arrivals: number[] = [];
    server.setHandler(() => void arrivals.push(performance.now()));

    const { result, events } = await run(
      crew({
        agents: [{ id: 'a', role: 'Patient', goal: 'Wait', llm: model() }],
        tasks: [{ id: 't', description: 'Say something', expectedOutput: 'A sentence', agentId: 'a' }],
      }),
    );

    expect(result.status, JSON.stringify(result.error)).toBe('completed');
    expect(result.output).toBe('Made it through.');
    expect(chatRequests()).toHaveLength(3);
    // Retry-After: 1 was honoured (the backoff for a first retry alone would be 250–500 ms).
    expect(arrivals[1]! - arrivals[0]!).toBeGreaterThanOrEqual(950);

    const llm = events.filter((e) => e.type.startsWith('llm.'));
    expect(llm.map((e) => e.type)).toEqual(['llm.started', 'llm.failed', 'llm.failed', 'llm.completed']);
    const failures = ofType(events, 'llm.failed');
    expect(failures.map((e) => [e.status, e.willRetry, e.attempt])).toEqual([
      [429, true, 1],
      [500, true, 2],
    ]);
    // All attempts belong to one model-call span.
    expect(new Set(llm.map((e) => e.spanId)).size).toBe(1);
    // Failed attempts are not billed: usage is the successful reply's only.
    expect(result.tokenUsage).toEqual(reported(replies));
  });

  it('repairs (or reports) malformed tool-call JSON and the task still completes', async () => {
    server.enqueue(
      { content: '', toolCalls: [{ name: 'calculator', arguments: { expression: '2 + 3' } }], fault: { kind: 'malformed_tool_args' }, usage: { prompt_tokens: 40, completion_tokens: 8 } },
      { content: 'The sum is 5.', usage: { prompt_tokens: 60, completion_tokens: 5 } },
    );

    const { result, events } = await run(
      crew({
        agents: [{ id: 'a', role: 'Adder', goal: 'Add', llm: model(), tools: [{ tool: 'calculator' }] }],
        tasks: [{ id: 't', description: 'Add two and three', expectedOutput: 'A sentence', agentId: 'a' }],
      }),
    );

    expect(result.status, JSON.stringify(result.error)).toBe('completed');
    expect(result.output).toBe('The sum is 5.');
    const first = ofType(events, 'llm.completed')[0];
    expect(first!.toolCalls[0]!.arguments).not.toBe(JSON.stringify({ expression: '2 + 3' })); // it really was broken

    // The model got an observation for its call: the result of the repaired call, or an error it can act on.
    const toolMessage = (chatRequests()[1]!.body.messages as { role: string; content: string }[]).find((m) => m.role === 'tool');
    expect(toolMessage).toBeDefined();
    const completed = ofType(events, 'tool.completed');
    const failed = ofType(events, 'tool.failed');
    expect(completed.length + failed.length).toBe(1);
    if (completed.length === 1) {
      expect(completed[0]!.result).toBe('5');
      expect(toolMessage!.content).toBe('5');
    } else {
      expect(toolMessage!.content).toMatch(/^Error: .*JSON/);
    }
  });

  it('nudges after an empty reply and the task completes', async () => {
    server.enqueue(
      { fault: { kind: 'empty' }, usage: { prompt_tokens: 25, completion_tokens: 0 } },
      { content: 'Here is my answer after all.', usage: { prompt_tokens: 40, completion_tokens: 7 } },
    );

    const { result, events } = await run(
      crew({
        agents: [{ id: 'a', role: 'Quiet', goal: 'Answer', llm: model() }],
        tasks: [{ id: 't', description: 'Answer the question', expectedOutput: 'An answer', agentId: 'a' }],
      }),
    );

    expect(result.status, JSON.stringify(result.error)).toBe('completed');
    expect(result.output).toBe('Here is my answer after all.');
    const requests = chatRequests();
    expect(requests).toHaveLength(2);
    const lastUser = (requests[1]!.body.messages as { role: string; content: string }[]).filter((m) => m.role === 'user').at(-1);
    expect(lastUser?.content).toMatch(/reply was empty/i);
    expect(ofType(events, 'llm.completed')[0]!.content).toBe('');
    expect(result.tokenUsage.requests).toBe(2);
    expect(result.tokenUsage.promptTokens).toBe(65);
  });

  it('reads OPENAI_API_KEY from the RuntimeOptions env, not process.env', async () => {
    const saved = process.env.OPENAI_API_KEY;
    process.env.OPENAI_API_KEY = 'from-process-env';
    try {
      server.enqueue({ content: 'ok', usage: { prompt_tokens: 1, completion_tokens: 1 } });
      const { result } = await run(
        crew({
          agents: [{ id: 'a', role: 'A', goal: 'g', llm: model() }],
          tasks: [{ id: 't', description: 'd', expectedOutput: 'e', agentId: 'a' }],
        }),
      );
      expect(result.status).toBe('completed');
      expect(chatRequests()[0]!.headers.authorization).toBe('Bearer integration-key');
    } finally {
      if (saved === undefined) delete process.env.OPENAI_API_KEY;
      else process.env.OPENAI_API_KEY = saved;
    }
  });

  it('never sends OPENAI_API_KEY to a base URL the model names itself; apiKeyEnv sends that key there', async () => {
    server.enqueue({ content: 'ok', usage: { prompt_tokens: 1, completion_tokens: 1 } }, { content: 'ok', usage: { prompt_tokens: 1, completion_tokens: 1 } });
    const task = { id: 't', description: 'd', expectedOutput: 'e', agentId: 'a' };
    const own = await run(crew({ agents: [{ id: 'a', role: 'A', goal: 'g', llm: model({ baseUrl: server.baseUrl }) }], tasks: [task] }));
    expect(own.result.status).toBe('completed');
    expect(chatRequests()[0]!.headers.authorization).not.toContain('integration-key');
    const named = await run(crew({ agents: [{ id: 'a', role: 'A', goal: 'g', llm: model({ baseUrl: server.baseUrl, apiKeyEnv: 'OPENAI_API_KEY' }) }], tasks: [task] }));
    expect(named.result.status).toBe('completed');
    expect(chatRequests()[1]!.headers.authorization).toBe('Bearer integration-key');
  });
});

