/**
 * `for_each` over N items (2 KB answers from the in-process scripted model, 4 at a time) with the run's
 * checkpointing on (`persist: true`: each finished item appended, each method's changes appended) and
 * off (`persist: false`: only the run's end is saved), in fresh workspaces with a real SQLite store.
 * CPU of this process per run; the two interleaved run by run.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FlowDocumentSchema } from '../../shared/model/flow';
import { createRuntime } from '../../runtime/runtime';
import { SqliteRunStore } from '../../runtime/store/sqliteRunStore';
import { openDatabase, workspaceDatabasePath } from '../../runtime/store/database';
import { cpuMs, interleaved, log, median, ratio, type Pair } from './measure';

const ANSWER = 'x'.repeat(2000);

class CountingStore extends SqliteRunStore {
  bytes = 0;
  override saveCheckpoint(runId: string, checkpoint: unknown): void {
    this.bytes += JSON.stringify(checkpoint).length;
    super.saveCheckpoint(runId, checkpoint);
  }
  override appendCheckpointEntry(runId: string, entry: unknown): void {
    this.bytes += JSON.stringify(entry).length;
    super.appendCheckpointEntry(runId, entry);
  }
}

function doc(items: number, persist: boolean) {
  return FlowDocumentSchema.parse({
    kind: 'flow',
    version: 1,
    id: 'fan-out',
    name: 'Fan out',
    persist,
    state: { initial: { items: Array.from({ length: items }, (_, i) => `item ${i}`) } },
    methods: [
      {
        id: 'each',
        name: 'each',
        trigger: { start: true },
        body: { type: 'for_each', items: '{state.items}', concurrency: 4, into: 'answers', body: { type: 'llm', prompt: 'About {item}', llm: { provider: 'scripted', model: 'm', script: { default: ANSWER } } } },
      },
    ],
  });
}

/**
 * One run's CPU. With `bytes`, the store counts the checkpoint bytes it is handed (a JSON.stringify of
 * each): that run is the extra one that counts, never a timed one, so the counting costs neither side.
 */
export async function once(items: number, persist: boolean, bytes?: number[]): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'crewdeck-bench-scale-flow-'));
  const db = openDatabase(workspaceDatabasePath(dir));
  const store = bytes ? new CountingStore(db) : new SqliteRunStore(db);
  try {
    const runtime = createRuntime({ workspace: dir, store });
    const d = doc(items, persist);
    // Until the store has committed what the run wrote: without it, a run that leaves its events queued
    // (checkpointing off commits nothing before the end) would be measured without storing them.
    const { ms, value } = await cpuMs(async () => {
      const result = await runtime.runFlow(d);
      store.flush();
      return result;
    });
    if (value.status !== 'completed') throw new Error(`for_each ${items}: ${value.status} ${value.error?.message ?? ''}`);
    if (store instanceof CountingStore) bytes?.push(store.bytes);
    return ms;
  } finally {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface ForEachFigures {
  items: number;
  pair: Pair;
  /** Checkpoint bytes written with checkpointing on (per run). */
  bytesOn: number;
  ratio: number;
}

export async function measureForEach(sizes: number[], rounds: number): Promise<ForEachFigures[]> {
  const out: ForEachFigures[] = [];
  for (const items of sizes) {
    log(`for_each ${items} items…`);
    const bytes: number[] = [];
    await once(items, true, bytes);
    const pair = await interleaved(rounds, 1, () => once(items, true), () => once(items, false));
    out.push({ items, pair, bytesOn: median(bytes), ratio: ratio(pair) });
  }
  return out;
}
