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
import { SYSTEM } from '../peers/frameworks/workloads.mjs';
import { cpuMs, interleaved, log, ratio, type Pair } from './measure';

const here = dirname(fileURLToPath(import.meta.url));

async function startServer(): Promise<{ baseUrl: string; child: ChildProcess }> {
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

async function batchOnce(baseUrl: string, rows: number): Promise<number> {
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

async function sdkOnce(baseUrl: string, calls: number): Promise<number> {
  const client = new OpenAI({ baseURL: baseUrl, apiKey: 'bench' });
  return (
    await cpuMs(async () => {
      for (let i = 0; i < calls; i++) {
        const stream = await client.chat.completions.create({
          model: 'bench',
          stream: true,
          stream_options: { include_usage: true },
          messages: [
            { role: 'system', content: SYSTEM },
            { role: 'user', content: prompt(`City${i}`) },
          ],
        });
        let text = '';
        for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
        if (!text.includes('FINAL')) throw new Error(`unexpected reply ${text}`);
      }
    })
  ).ms / calls;
}

export interface BatchFigures {
  rows: number;
  pair: Pair;
  ratio: number;
}

export async function measureBatch(rows: number, rounds: number): Promise<BatchFigures> {
  log(`batch of ${rows} rows…`);
  const { baseUrl, child } = await startServer();
  try {
    const pair = await interleaved(rounds, 1, () => batchOnce(baseUrl, rows), () => sdkOnce(baseUrl, rows));
    return { rows, pair, ratio: ratio(pair) };
  } finally {
    child.kill();
  }
}
