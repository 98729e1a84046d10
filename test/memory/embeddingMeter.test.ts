import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WorkspaceSettingsSchema } from '../../shared/model/workspace';
import type { RuntimeEvent } from '../../shared/events';
import { createRuntime } from '../../runtime/runtime';
import { crew, ofType, runCrew, scripted, tempWorkspace } from '../support/crewHarness';
import { startScriptedServer, type ScriptedServer } from '../support/scriptedServer';
import { trustWorkspace } from '../support/trustWorkspace';

/**
 * Embedding requests of a run (knowledge ingest and search here) are traced (`embedding.completed`:
 * model, tokens, duration), metered into the run's totals (tokens and cost at the embedder's price) and
 * counted against its budget, like model calls.
 */
let ws: ReturnType<typeof tempWorkspace>;
let server: ScriptedServer;
beforeEach(async () => {
  ws = tempWorkspace('crewdeck-embedding-meter-');
  server = await startScriptedServer({ embeddingDimensions: 32 });
});
afterEach(async () => {
  ws.remove();
  await server.close();
});

const EMBED_PRICE = 20; // $ per million tokens: large enough to show in the cost
function settings() {
  return WorkspaceSettingsSchema.parse({
    version: 1,
    memory: { embedder: { provider: 'openai', model: 'embed-small', baseUrl: server.baseUrl } },
    prices: { 'embed-small': { inputPerMTok: EMBED_PRICE, outputPerMTok: 0 }, test: { inputPerMTok: 1, outputPerMTok: 2 } },
  });
}

function knowledgeCrew(extra: Record<string, unknown> = {}) {
  return crew({
    id: 'kb',
    knowledge: [{ type: 'text', name: 'hours', text: 'The bakery opens at six in the morning. The ovens are lit at half past four.' }],
    agents: [{ id: 'w', role: 'Writer', goal: 'Write', llm: scripted({ default: 'It opens at six.' }) }],
    tasks: [{ id: 't1', description: 'When does the bakery open?', expectedOutput: 'A time', agentId: 'w' }],
    ...extra,
  });
}

/** What the server billed: its reported prompt tokens for each embeddings request it answered. */
function serverEmbeddingTokens(): number[] {
  return server.requests
    .filter((r) => r.path.endsWith('/embeddings'))
    .map((r) => Math.ceil((r.body.input as string[]).reduce((n, text) => n + text.length, 0) / 4));
}

describe('embedding requests in runs', () => {
  it('are traced with model, tokens and duration, and metered into the run total and cost', async () => {
    const s = settings();
    trustWorkspace(ws.dir, s); // the embedder sends texts to a baseUrl of its own
    const { result, events } = await runCrew(knowledgeCrew(), { workspace: ws, settings: s });
    expect(result.status).toBe('completed');

    const embedded = ofType(events, 'embedding.completed');
    const billed = serverEmbeddingTokens();
    // The dimension probe, the source's chunks, the task's query: one event per request the server answered.
    expect(billed.length).toBeGreaterThanOrEqual(3);
    expect(embedded.map((e) => e.usage.totalTokens)).toEqual(billed);
    for (const e of embedded) {
      expect(e.model).toBe('openai:embed-small');
      expect(e.durationMs).toBeGreaterThanOrEqual(0);
      expect(e.tokensEstimated).toBeUndefined();
      expect(e.usage.costUsd).toBeCloseTo((e.usage.totalTokens * EMBED_PRICE) / 1_000_000, 12);
    }
    // The task's query is embedded on the task's span, with its id and role.
    const task = ofType(events, 'task.started')[0];
    const query = embedded.find((e) => e.parentSpanId === task!.spanId);
    expect(query).toMatchObject({ taskId: 't1', agentRole: 'Writer', texts: 1 });

    // The run's total is the model calls' plus the embeddings'.
    const llm = ofType(events, 'llm.completed').map((e) => e.usage);
    const sum = (list: { totalTokens: number }[]) => list.reduce((n, u) => n + u.totalTokens, 0);
    const cost = (list: { costUsd?: number }[]) => list.reduce((n, u) => n + (u.costUsd ?? 0), 0);
    expect(result.tokenUsage.totalTokens).toBe(sum(llm) + sum(embedded.map((e) => e.usage)));
    expect(result.tokenUsage.requests).toBe(llm.length + embedded.length);
    expect(result.tokenUsage.costUsd).toBeCloseTo(cost(llm) + cost(embedded.map((e) => e.usage)), 12);
    expect(result.usageByTask.t1!.totalTokens).toBeGreaterThan(sum(llm));
    const completed = ofType(events, 'run.completed')[0];
    expect(completed!.tokenUsage).toEqual(result.tokenUsage);
  });

  it('count against the budget: embedding tokens alone reach maxTokens and the run pauses before its model call', async () => {
    const s = settings();
    trustWorkspace(ws.dir, s);
    // A paused run's trace goes on when it resumes: run it without the harness's whole-trace check.
    const events: RuntimeEvent[] = [];
    const runtime = createRuntime({ workspace: ws.dir, store: ws.store, settings: s });
    const result = await runtime.runCrew(knowledgeCrew({ budget: { maxTokens: 3 } }), { onEvent: (e) => events.push(e) });
    expect(result.status).toBe('paused');
    const [reached] = ofType(events, 'budget.reached');
    expect(reached!.which).toBe('maxTokens');
    const embedded = ofType(events, 'embedding.completed');
    expect(embedded.length).toBeGreaterThan(0);
    expect(reached!.spent).toBe(embedded.reduce((n, e) => n + e.usage.totalTokens, 0));
    // No model was called: the embeddings used the budget up.
    expect(ofType(events, 'llm.started')).toHaveLength(0);
    // And no request was made once the cap was reached.
    expect(serverEmbeddingTokens()).toHaveLength(embedded.length);
  });
});
