/**
 * A batch of N rows (a 1-task crew once per row, the real openai provider streaming over HTTP, every
 * event and the batch's rows in SQLite) beside N calls of the bare openai SDK (the same streamed chat
 * calls in a loop), both against the zero-latency server of bench/peers in its own process. CPU of this
 * process only, per row / per call; the two interleaved.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import OpenAI from 'openai';
import { CrewDocumentSchema } from '../../shared/model/crew';
import { createRuntime } from '../../runtime/runtime';
import { SqliteRunStore } from '../../runtime/store/sqliteRunStore';
import { newBatchId, runBatchRows, suggestionsOnce } from '../../runtime/batch/storedBatch';
import { workspaceSuggestions } from '../../runtime/training/suggestionSource';
import { newRunId } from '../../runtime/runId';
import type { BatchRecord } from '../../runtime/store/types';
import { SYSTEM, taskPrompt } from '../peers/frameworks/workloads.mjs';
import * as crewdeckPeer from '../peers/frameworks/crewdeck';
import { nodeHttpFetch } from '../../runtime/llm/nodeHttpFetch';
import { cpuMs, log, median } from './measure';

const here = dirname(fileURLToPath(import.meta.url));

export async function startServer(): Promise<{ baseUrl: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [join(here, '..', 'peers', 'zeroServer.mjs'), '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout! });
  const baseUrl = await new Promise<string>((resolve, reject) => {
    lines.once('line', (line) => resolve(line.trim()));
    child.once('exit', (code) => reject(new Error(`the zero-latency server exited (${code}) before listening`)));
  });
  if (!/^http:\/\/127\.0\.0\.1:\d+\/v1$/.test(baseUrl)) throw new Error(`the zero-latency server printed ${JSON.stringify(baseUrl)}, not a loopback URL`);
  return { baseUrl, child };
}

const prompt = (city: string) => `Describe ${city} in one line.`;

export async function batchOnce(baseUrl: string, rows: number): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'crewdeck-bench-scale-batch-'));
  const store = SqliteRunStore.open(dir);
  try {
    const doc = CrewDocumentSchema.parse({
      kind: 'crew',
      version: 1,
      id: 'guide',
      name: 'City guide',
      inputs: [{ name: 'city' }],
      agents: [{ id: 'g', role: 'Guide', goal: SYSTEM, backstory: 'Knows cities.', llm: { provider: 'openai', model: 'bench', baseUrl, stream: true } }],
      tasks: [{ id: 'describe', description: prompt('{city}'), expectedOutput: 'One line.', agentId: 'g' }],
    });
    return (
      await cpuMs(async () => {
        const now = Date.now();
        const batch: BatchRecord = {
          id: newBatchId(now),
          documentId: doc.id,
          name: doc.name,
          documentPath: 'guide.crew.json',
          concurrency: 1,
          inputs: {},
          status: 'running',
          createdAt: now,
          rows: Array.from({ length: rows }, (_, index) => ({ index, inputs: { city: `City${index}` }, status: 'queued' as const, runId: newRunId(now) })),
        };
        store.createBatch({ ...batch, rows: batch.rows.map((r) => ({ inputs: r.inputs, runId: r.runId })) });
        const runtime = createRuntime({ workspace: dir, store, env: { OPENAI_BASE_URL: baseUrl }, suggestions: suggestionsOnce(workspaceSuggestions(dir)) });
        const { status } = await runBatchRows(store, batch, batch.rows, new AbortController().signal, (row) => runtime.runCrew(doc, { runId: row.runId, inputs: row.inputs }), Date.now);
        if (status !== 'completed') throw new Error(`batch ${status}`);
      })
    ).ms / rows;
  } finally {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The bare SDK's streamed calls, `prompts(i)` for the i-th, on Crewdeck's transport (`nodeHttpFetch`,
 * runtime/llm/nodeHttpFetch.ts: what the openai provider gives the SDK) or on the SDK's default (Node's fetch).
 */
export async function sdkOnce(baseUrl: string, calls: number, transport: 'crewdeck' | 'default', prompts: (i: number, previous: string) => string): Promise<number> {
  const client = new OpenAI({ baseURL: baseUrl, apiKey: 'bench', ...(transport === 'crewdeck' ? { fetch: nodeHttpFetch } : {}) });
  return (
    await cpuMs(async () => {
      let previous = '';
      for (let i = 0; i < calls; i++) {
        const stream = await client.chat.completions.create({
          model: 'bench',
          stream: true,
          stream_options: { include_usage: true },
          messages: [
            { role: 'system', content: SYSTEM },
            { role: 'user', content: prompts(i, previous) },
          ],
        });
        let text = '';
        for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
        if (!text.includes('FINAL')) throw new Error(`unexpected reply ${text}`);
        previous = text;
      }
    })
  ).ms / calls;
}

/** Per row / per task CPU (ms) of Crewdeck, and of the bare SDK on Crewdeck's transport and on its default one. */
export interface TransportTriple {
  crewdeck: number[];
  sdkSameTransport: number[];
  sdkDefaultTransport: number[];
}

export interface HttpFigures {
  /** A stored batch, one 1-task crew per row. */
  batch: TransportTriple & { rows: number };
  /** W1 of bench:peers: a 200-task sequential crew, the previous task's output as context. */
  perTask: TransportTriple & { tasks: number };
}

/** `rounds` triples after one warm-up, rotating which goes first. */
async function triple(rounds: number, steps: [() => Promise<number>, () => Promise<number>, () => Promise<number>]): Promise<TransportTriple> {
  const out: TransportTriple = { crewdeck: [], sdkSameTransport: [], sdkDefaultTransport: [] };
  const keys = ['crewdeck', 'sdkSameTransport', 'sdkDefaultTransport'] as const;
  for (let i = 0; i < rounds + 1; i++) {
    for (let k = 0; k < 3; k++) {
      const which = (i + k) % 3;
      const ms = await steps[which]!();
      if (i > 0) out[keys[which]!].push(ms);
    }
  }
  return out;
}

export const tripleRatio = (t: TransportTriple, floor: 'sdkSameTransport' | 'sdkDefaultTransport') => median(t.crewdeck) / median(t[floor]);

export async function measureHttp(rows: number, tasks: number, rounds: number): Promise<HttpFigures> {
  const { baseUrl, child } = await startServer();
  try {
    log(`batch of ${rows} rows…`);
    const city = (i: number) => prompt(`City${i}`);
    const batch = await triple(rounds, [() => batchOnce(baseUrl, rows), () => sdkOnce(baseUrl, rows, 'crewdeck', city), () => sdkOnce(baseUrl, rows, 'default', city)]);
    log(`${tasks}-task sequential crew over HTTP…`);
    const w1 = (i: number, previous: string) => taskPrompt(i, previous, false);
    const perTask = await triple(rounds, [
      async () => (await cpuMs(() => crewdeckPeer.sequential(baseUrl, tasks))).ms / tasks,
      () => sdkOnce(baseUrl, tasks, 'crewdeck', w1),
      () => sdkOnce(baseUrl, tasks, 'default', w1),
    ]);
    return { batch: { ...batch, rows }, perTask: { ...perTask, tasks } };
  } finally {
    child.kill();
  }
}
