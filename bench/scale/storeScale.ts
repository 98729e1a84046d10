/**
 * The run store at scale, each beside its SQLite floor in the same run:
 * - trace load: every event of a run through the host API (`runs.events`, pages as the app asks for
 *   them: 1,500 then 2,500), beside the same pages selected and parsed straight from SQLite;
 * - event insert: `appendEvent` (grouped per turn) beside a raw prepared insert of the same rows in the
 *   same transactions;
 * - `runs.list` by document at 1k / 10k / 100k runs, beside the unfiltered first page.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RuntimeEvent } from '../../shared/events';
import { createHostService } from '../../runtime/host/createHostService';
import { RunEventLog } from '../../runtime/events/span';
import { openDatabase, workspaceDatabasePath } from '../../runtime/store/database';
import { SqliteRunStore } from '../../runtime/store/sqliteRunStore';
import { emitSampleRun, sampleRun } from '../../test/store/sampleRun';
import { cpuMs, interleaved, log, median, ratio, type Pair } from './measure';

const FIRST_PAGE = 1500;
const NEXT_PAGE = 2500;
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** How many events emitSampleRun emits per task (measured on a small run). */
function eventsPerTask(): number {
  const n = emitSampleRun(new RunEventLog('run_count', () => 0), 100).length;
  return (n - 2) / 100;
}

/** A crew document of `tasks` tasks (an 8,400-task crew is ~1.8 MB of JSON). */
function bigCrew(tasks: number) {
  return {
    kind: 'crew',
    version: 1,
    id: 'research-crew',
    name: 'Research crew',
    agents: [{ id: 'a1', role: 'Researcher', goal: 'Find facts', backstory: 'Careful.' }],
    tasks: Array.from({ length: tasks }, (_, i) => ({ id: `t${i + 1}`, description: `Find facts about tide pools, part ${i + 1}, with sources and dates.`, expectedOutput: 'A list of facts', agentId: 'a1', context: i > 0 ? [`t${i}`] : [] })),
  };
}

/** A workspace whose store holds one run of about `events` events, with an 8,400-task crew as its document. */
async function traceWorkspace(events: number): Promise<{ dir: string; runId: string; count: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'crewdeck-bench-scale-trace-'));
  writeFileSync(join(dir, 'crewdeck.json'), JSON.stringify({ version: 1 }));
  const store = SqliteRunStore.open(dir);
  const runId = 'run_trace';
  store.createRun({ ...sampleRun(runId), document: bigCrew(8400) });
  const log = new RunEventLog(runId, () => Date.now());
  log.listen((e) => store.appendEvent(e));
  const emitted = emitSampleRun(log, Math.ceil(events / eventsPerTask()));
  store.close();
  return { dir, runId, count: emitted.length };
}

export interface TraceFigures {
  events: number;
  pages: number;
  pair: Pair;
  ratio: number;
}

export async function measureTraceLoad(sizes: number[], rounds: number): Promise<TraceFigures[]> {
  const out: TraceFigures[] = [];
  for (const size of sizes) {
    log(`trace load ${size} events…`);
    const { dir, runId, count } = await traceWorkspace(size);
    const host = createHostService({ workspace: dir, transport: 'websocket', env: {} });
    const db = new Database(workspaceDatabasePath(dir), { readonly: true });
    const select = db.prepare('SELECT seq, type, ts, span_id, parent_span_id, payload FROM events WHERE run_id = ? AND seq > ? ORDER BY seq LIMIT ?').raw(true);
    let pages = 0;
    try {
      // A fresh run id each round would need a fresh store; instead each round is "the app opens the run":
      // runs.get once, then the pages.
      const viaHost = async () =>
        (
          await cpuMs(async () => {
            const got = await host.handle('runs.get', { runId });
            if (!got.ok) throw new Error(got.error.message);
            let after = 0;
            let limit = FIRST_PAGE;
            let n = 0;
            pages = 0;
            for (;;) {
              const r = await host.handle('runs.events', { runId, afterSeq: after, limit });
              if (!r.ok) throw new Error(r.error.message);
              const page = r.response as { events: RuntimeEvent[]; lastSeq: number; more: boolean };
              n += page.events.length;
              pages += 1;
              after = page.lastSeq;
              limit = NEXT_PAGE;
              if (!page.more) break;
            }
            if (n !== count) throw new Error(`host gave ${n} events, expected ${count}`);
          })
        ).ms;
      const floor = async () =>
        (
          await cpuMs(() => {
            let after = 0;
            let limit = FIRST_PAGE;
            let n = 0;
            for (;;) {
              const rows = select.all(runId, after, limit + 1) as [number, string, number, string, string | null, string][];
              const page = rows.slice(0, limit).map(([seq, type, ts, spanId, parentSpanId, payload]) => ({ type, ...(JSON.parse(payload) as object), runId, seq, ts, spanId, ...(parentSpanId ? { parentSpanId } : {}) }));
              n += page.length;
              after = page.at(-1)?.seq ?? after;
              limit = NEXT_PAGE;
              if (rows.length <= page.length) break;
            }
            if (n !== count) throw new Error(`floor read ${n} events, expected ${count}`);
          })
        ).ms;
      const pair = await interleaved(rounds, 1, viaHost, floor);
      out.push({ events: count, pages, pair, ratio: ratio(pair) });
    } finally {
      db.close();
      await host.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return out;
}

export interface InsertFigures {
  events: number;
  perTurn: number;
  pair: Pair;
  ratio: number;
}

/** `events` events, `perTurn` per event-loop turn: the store's grouped commit beside raw inserts in the same transactions. */
export async function measureEventInsert(events: number, perTurn: number, rounds: number): Promise<InsertFigures> {
  log(`event insert ${events}…`);
  // The same events for both: a realistic mix (model calls with messages, tools, tasks).
  const sample: RuntimeEvent[] = [];
  const source = new RunEventLog('run_x', () => 1_700_000_000_000);
  source.listen((e) => sample.push(e));
  emitSampleRun(source, Math.ceil(events / eventsPerTask()));
  const rows = sample.slice(0, events);
  let round = 0;
  const viaStore = async () => {
    const dir = mkdtempSync(join(tmpdir(), 'crewdeck-bench-scale-insert-'));
    const store = SqliteRunStore.open(dir);
    const runId = `run_${++round}`;
    store.createRun(sampleRun(runId));
    const events = rows.map((e) => ({ ...e, runId }));
    try {
      return (
        await cpuMs(async () => {
          for (let i = 0; i < events.length; i += perTurn) {
            for (let j = i; j < Math.min(i + perTurn, events.length); j++) store.appendEvent(events[j]!);
            await turn();
          }
          store.commitPending();
        })
      ).ms;
    } finally {
      store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  };
  const raw = async () => {
    const dir = mkdtempSync(join(tmpdir(), 'crewdeck-bench-scale-insert-'));
    const db = openDatabase(workspaceDatabasePath(dir));
    const runId = `run_${++round}`;
    const store = new SqliteRunStore(db);
    store.createRun(sampleRun(runId));
    const insert = db.prepare('INSERT INTO events (run_id, seq, type, ts, span_id, parent_span_id, payload) VALUES (?, ?, ?, ?, ?, ?, ?)');
    const tx = db.transaction((from: number, to: number) => {
      for (let j = from; j < to; j++) {
        const { type, seq, ts, spanId, parentSpanId, runId: _r, ...payload } = rows[j]!;
        insert.run(runId, seq, type, ts, spanId, parentSpanId ?? null, JSON.stringify(payload));
      }
    });
    try {
      return (
        await cpuMs(async () => {
          for (let i = 0; i < rows.length; i += perTurn) {
            tx(i, Math.min(i + perTurn, rows.length));
            await turn();
          }
        })
      ).ms;
    } finally {
      store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  };
  const pair = await interleaved(rounds, 1, viaStore, raw);
  return { events: rows.length, perTurn, pair, ratio: ratio(pair) };
}

export interface ListFigures {
  runs: number;
  byDocumentMs: number;
  unfilteredMs: number;
  ratio: number;
}

/** `runs.list` filtered by document (the crew's 50 newest of 1 in 10 runs) beside the unfiltered first page. */
export async function measureRunsList(sizes: number[], queries: number): Promise<ListFigures[]> {
  const out: ListFigures[] = [];
  for (const size of sizes) {
    log(`runs.list over ${size} runs…`);
    const dir = mkdtempSync(join(tmpdir(), 'crewdeck-bench-scale-list-'));
    const store = SqliteRunStore.open(dir);
    try {
      const db = (store as unknown as { db: Database.Database }).db;
      db.transaction(() => {
        for (let i = 0; i < size; i++) store.createRun({ ...sampleRun(`run_${i}`, 1_700_000_000_000 + i), documentId: i % 10 === 0 ? 'the-crew' : `other-${i % 7}` });
      })();
      const pair = await interleaved(
        queries,
        5,
        async () => (await cpuMs(() => store.listRuns({ documentId: 'the-crew', limit: 50 }))).wallMs,
        async () => (await cpuMs(() => store.listRuns({ limit: 50 }))).wallMs,
      );
      out.push({ runs: size, byDocumentMs: median(pair.measured), unfilteredMs: median(pair.floor), ratio: ratio(pair) });
    } finally {
      store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return out;
}
