import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RuntimeEvent } from '../../shared/events';
import { createRuntime } from '../../runtime/runtime';
import { crew, ofType, runCrew, tempWorkspace } from '../support/crewHarness';
import { trustWorkspace } from '../support/trustWorkspace';
import { startScriptedServer, type ScriptedServer } from '../support/scriptedServer';

/**
 * The conversion call of a JSON-output task (runtime/crew/outputConversion.ts), through the real `openai`
 * SDK against the scripted OpenAI-compatible server, with the run stored in real SQLite.
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

const model = { provider: 'openai' as const, model: 'scripted-gpt', stream: false };
const schema = {
  type: 'object',
  properties: { city: { type: 'string' }, population: { type: 'number' } },
  required: ['city', 'population'],
};
const DESCRIPTION = 'Look up the largest city of Norway and its population';
const PROSE = 'The largest city of Norway is Oslo, with about 709000 inhabitants.';

function cityCrew(extra: Record<string, unknown> = {}) {
  return crew({
    agents: [{ id: 'a', role: 'Researcher', goal: 'Find facts', llm: model }],
    tasks: [{ id: 'city', description: DESCRIPTION, expectedOutput: 'The city and its population', agentId: 'a', output: { format: 'json', schema, crewai: 'output_pydantic' } }],
    ...extra,
  });
}

async function run(doc: ReturnType<typeof crew>) {
  const workspace = tempWorkspace('crewdeck-conversion-');
  workspaces.push(workspace);
  trustWorkspace(workspace.dir, undefined, [doc]);
  return runCrew(doc, { workspace, env: { OPENAI_API_KEY: 'integration-key', OPENAI_BASE_URL: server.baseUrl } });
}

const chatRequests = () => server.requests.filter((r) => r.path === '/v1/chat/completions');
type Message = { role: string; content: string };

describe('a prose reply to a JSON-output task', () => {
  it('gets one conversion call with only the instruction, the schema and the reply; its JSON is the output', async () => {
    server.enqueue(
      { content: `Thought: I now can give a great answer\nFinal Answer: ${PROSE}`, usage: { prompt_tokens: 200, completion_tokens: 30 } },
      { content: '{"city": "Oslo", "population": 709000}', usage: { prompt_tokens: 80, completion_tokens: 12 } },
    );
    const { result, events, ws } = await run(cityCrew());

    expect(result.status, JSON.stringify(result.error)).toBe('completed');
    expect(result.tasks[0]!.json).toEqual({ city: 'Oslo', population: 709000 });
    expect(result.tasks[0]!.raw).toBe('{"city": "Oslo", "population": 709000}');

    const requests = chatRequests();
    expect(requests).toHaveLength(2);
    const conversion = requests[1]!.body as { messages: Message[]; response_format?: unknown; tools?: unknown };
    const sent = JSON.stringify(conversion.messages);
    // Exactly two messages: the instruction with the schema, then the reply as the agent's final answer.
    expect(conversion.messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(conversion.messages[0]!.content).toContain(JSON.stringify(schema, null, 2));
    expect(conversion.messages[0]!.content).toMatch(/JSON value only/);
    expect(conversion.messages[1]!.content).toBe(PROSE);
    // Never the task, the agent's identity or its conversation.
    expect(sent).not.toContain(DESCRIPTION);
    expect(sent).not.toContain('Researcher');
    expect(sent).not.toContain('Final Answer');
    expect(conversion.response_format).toEqual({ type: 'json_object' });
    expect(conversion.tools).toBeUndefined();

    // Traced as a model call of the task, with its own purpose; no failed attempt, no retry.
    const llm = ofType(events, 'llm.started');
    expect(llm.map((e) => e.purpose)).toEqual(['agent', 'conversion']);
    expect(llm[1]!.agentRole).toBe('Researcher');
    expect(ofType(events, 'task.retrying')).toHaveLength(0);
    expect(ofType(events, 'guardrail.failed')).toHaveLength(0);
    expect(ofType(events, 'task.completed')[0]!.readAs).toEqual(['converted-json']);

    // Metered like any call: for the run, the task and the agent, and so stored.
    const expected = { promptTokens: 280, completionTokens: 42, cachedPromptTokens: 0, totalTokens: 322, requests: 2, unpricedModels: ['openai:scripted-gpt'] };
    expect(result.tokenUsage).toEqual(expected);
    expect(result.usageByTask.city).toEqual(expected);
    expect(result.usageByAgent.Researcher).toEqual(expected);
    expect(ws.store.getRun(result.runId)?.tokenUsage).toEqual(expected);
    expect(ws.store.taskOutputs(result.runId)[0]).toMatchObject({ json: { city: 'Oslo', population: 709000 } });
  });

  it('a conversion that still gives no matching JSON fails the attempt; the retry goes on as before', async () => {
    server.enqueue(
      { content: PROSE, usage: { prompt_tokens: 100, completion_tokens: 20 } },
      { content: 'Oslo, 709000.', usage: { prompt_tokens: 50, completion_tokens: 5 } },
      { content: '{"city": "Oslo", "population": 709000}', usage: { prompt_tokens: 150, completion_tokens: 12 } },
    );
    const { result, events } = await run(cityCrew());

    expect(result.status, JSON.stringify(result.error)).toBe('completed');
    expect(result.tasks[0]!.json).toEqual({ city: 'Oslo', population: 709000 });
    expect(ofType(events, 'llm.started').map((e) => e.purpose)).toEqual(['agent', 'conversion', 'agent']);
    // The agent is told what was wrong with its own reply, which is the rejected output.
    const [retrying] = ofType(events, 'task.retrying');
    expect(retrying!.reason).toMatch(/^output must be valid JSON/);
    expect(retrying!.rejectedOutput).toBe(PROSE);
    expect(ofType(events, 'task.completed')[0]!.readAs).toBeUndefined();
    expect(result.tokenUsage.requests).toBe(3);
  });

  it('counts against the budget: a run whose reply spent it pauses before the conversion call', async () => {
    server.enqueue({ content: PROSE, usage: { prompt_tokens: 400, completion_tokens: 40 } });
    // A paused run has not ended: it runs without runCrew's check that the trace is closed.
    const doc = cityCrew({ budget: { maxTokens: 300 } });
    const workspace = tempWorkspace('crewdeck-conversion-');
    workspaces.push(workspace);
    trustWorkspace(workspace.dir, undefined, [doc]);
    const events: RuntimeEvent[] = [];
    const runtime = createRuntime({ workspace: workspace.dir, store: workspace.store, env: { OPENAI_API_KEY: 'integration-key', OPENAI_BASE_URL: server.baseUrl } });
    const result = await runtime.runCrew(doc, { onEvent: (e) => events.push(e) });

    expect(result.status).toBe('paused');
    expect(chatRequests()).toHaveLength(1);
    expect(ofType(events, 'budget.reached')[0]).toMatchObject({ which: 'maxTokens', spent: 440, limit: 300, taskId: 'city' });
    expect(ofType(events, 'task.paused')[0]).toMatchObject({ taskId: 'city', reason: 'budget' });
    expect(workspace.store.getRun(result.runId)?.status).toBe('paused');
  });
});
