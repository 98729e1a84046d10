import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, workspaceDatabasePath } from '../../runtime/store/database';
import { RunNotFound } from '../../runtime/errors';
import { SqliteRunStore } from '../../runtime/store/sqliteRunStore';
import type { StoredTaskOutput } from '../../runtime/store/types';
import { emptyUsage } from '../../shared/usage';
import { T0, emitSampleRun, sampleLog, sampleRun } from './sampleRun';

const usage = { promptTokens: 100, completionTokens: 40, cachedPromptTokens: 10, totalTokens: 140, requests: 3 };

let workspace: string;
let store: SqliteRunStore;

beforeEach(() => {
  workspace = mkdtempSync(join(tmpdir(), 'crewdeck-store-'));
  store = SqliteRunStore.open(workspace);
});
afterEach(() => {
  store.close();
  rmSync(workspace, { recursive: true, force: true });
});

function reopen(): SqliteRunStore {
  store.close();
  store = SqliteRunStore.open(workspace);
  return store;
}

describe('SqliteRunStore', () => {
  it('round-trips a run from creation to its end, across a reopen', () => {
    store.createRun({ ...sampleRun('r1'), replayOf: { runId: 'r0', fromTaskId: 't2' } });
    expect(store.getRun('r1')).toStrictEqual({
      id: 'r1',
      kind: 'crew',
      documentId: 'research-crew',
      name: 'Research crew',
      status: 'running',
      startedAt: T0,
      tokenUsage: emptyUsage(),
      replayOf: { runId: 'r0', fromTaskId: 't2' },
      document: sampleRun('r1').document,
      documentPath: 'crews/research.crew.json',
      inputs: { topic: 'tide pools' },
    });

    store.finishRun('r1', { status: 'completed', output: 'the answer', tokenUsage: usage, endedAt: T0 + 1234 });
    const run = reopen().getRun('r1');
    expect(run).toMatchObject({ status: 'completed', output: 'the answer', tokenUsage: usage, endedAt: T0 + 1234, durationMs: 1234 });
    expect(run).not.toHaveProperty('error');
  });

  it('stores a failed run with its error and leaves optional fields absent', () => {
    store.createRun({ ...sampleRun('r1'), documentPath: undefined });
    store.finishRun('r1', { status: 'failed', error: 'boom', tokenUsage: emptyUsage(), endedAt: T0 + 5 });
    const run = store.getRun('r1')!;
    expect(run.status).toBe('failed');
    expect(run.error).toBe('boom');
    expect(run).not.toHaveProperty('output');
    expect(run).not.toHaveProperty('documentPath');
    expect(run).not.toHaveProperty('replayOf');
  });

  it('returns undefined for an unknown run and refuses to finish one', () => {
    expect(store.getRun('nope')).toBeUndefined();
    expect(() => store.finishRun('nope', { status: 'completed', tokenUsage: emptyUsage(), endedAt: T0 })).toThrow(RunNotFound);
  });

  it('gives back exactly the events appended, including absent parentSpanId', () => {
    store.createRun(sampleRun('r1'));
    const log = sampleLog('r1');
    log.listen((e) => store.appendEvent(e));
    const emitted = emitSampleRun(log, 3);

    const stored = reopen().events('r1');
    expect(stored).toStrictEqual(emitted);
    // Same key order too, so serialised logs are byte-identical.
    expect(stored.map((e) => JSON.stringify(e))).toEqual(emitted.map((e) => JSON.stringify(e)));
    expect(stored[0]).not.toHaveProperty('parentSpanId');
    expect(stored[1]!.parentSpanId).toBe(stored[0]!.spanId);
  });

  it('returns only the events after a given seq, in order, per run', () => {
    store.createRun(sampleRun('r1'));
    store.createRun(sampleRun('r2'));
    for (const id of ['r1', 'r2']) {
      const log = sampleLog(id);
      log.listen((e) => store.appendEvent(e));
      emitSampleRun(log, 2);
    }
    const all = store.events('r1');
    expect(all.map((e) => e.seq)).toEqual(Array.from({ length: all.length }, (_, i) => i + 1));
    expect(all.every((e) => e.runId === 'r1')).toBe(true);
    expect(store.events('r1', 10).map((e) => e.seq)).toEqual(all.slice(10).map((e) => e.seq));
    expect(store.events('r1', all.length)).toEqual([]);
    expect(store.events('unknown')).toEqual([]);
    // A page: at most `limit` events after the seq.
    expect(store.events('r1', 3, 4).map((e) => e.seq)).toEqual([4, 5, 6, 7]);
    expect(store.events('r1', 3, 0)).toEqual([]);
  });

  it('rejects a duplicate seq and an event for an unknown run', () => {
    store.createRun(sampleRun('r1'));
    const [first] = emitSampleRun(sampleLog('r1'), 1);
    store.appendEvent(first!);
    store.flush();
    store.appendEvent(first!);
    expect(() => store.flush()).toThrow(/UNIQUE|PRIMARY KEY/);
    store.appendEvent({ ...first!, runId: 'ghost' });
    expect(() => store.events('r1')).toThrow(/FOREIGN KEY/); // any later call reports a failed commit
    expect(store.events('r1')).toHaveLength(1);
  });

  it('commits the events of one event-loop turn together, before the next turn', async () => {
    store.createRun(sampleRun('r1'));
    const events = emitSampleRun(sampleLog('r1'), 1);
    for (const e of events) store.appendEvent(e);
    const reader = new Database(workspaceDatabasePath(workspace), { readonly: true });
    const stored = () => (reader.prepare('SELECT COUNT(*) AS n FROM events').get() as { n: number }).n;
    try {
      expect(stored()).toBe(0); // still pending in this turn
      await new Promise((resolve) => setImmediate(resolve));
      expect(stored()).toBe(events.length);
    } finally {
      reader.close();
    }
  });

  it("commits a task output in its turn's transaction, with the events around it", async () => {
    store.createRun(sampleRun('r1'));
    const [first, second] = emitSampleRun(sampleLog('r1'), 1);
    store.appendEvent(first!);
    store.saveTaskOutput({ runId: 'r1', taskId: 't1', index: 0, agentRole: 'A', raw: 'done', skipped: false, tokenUsage: usage });
    store.appendEvent(second!);
    const reader = new Database(workspaceDatabasePath(workspace), { readonly: true });
    const count = (table: string) => (reader.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
    try {
      expect([count('events'), count('task_outputs')]).toEqual([0, 0]); // nothing committed mid-turn
      await new Promise((resolve) => setImmediate(resolve));
      expect([count('events'), count('task_outputs')]).toEqual([2, 1]);
    } finally {
      reader.close();
    }
    // A later call sees it as well (it commits what is pending first).
    store.saveTaskOutput({ runId: 'r1', taskId: 't2', index: 1, agentRole: 'A', raw: 'next', skipped: false, tokenUsage: usage });
    expect(store.taskOutputs('r1').map((o) => o.raw)).toEqual(['done', 'next']);
  });

  it("a run's row, events, checkpoint, entries and end written in one turn commit together, in the order written", async () => {
    const events = emitSampleRun(sampleLog('r1'), 1);
    store.createRun(sampleRun('r1'));
    for (const e of events) store.appendEvent(e);
    store.appendCheckpointEntry('r1', { n: 'before' }); // dropped by the whole checkpoint after it
    store.saveCheckpoint('r1', { at: 'end' });
    store.appendCheckpointEntry('r1', { n: 'after' });
    store.finishRun('r1', { status: 'completed', output: 'done', tokenUsage: usage, endedAt: T0 + 5 });
    const reader = new Database(workspaceDatabasePath(workspace), { readonly: true });
    const count = (sql: string) => (reader.prepare(sql).get() as { n: number }).n;
    const seen = () => [
      count('SELECT COUNT(*) AS n FROM runs'),
      count('SELECT COUNT(*) AS n FROM events'),
      count('SELECT COUNT(*) AS n FROM flow_checkpoints'),
      count('SELECT COUNT(*) AS n FROM checkpoint_entries'),
      count("SELECT COUNT(*) AS n FROM runs WHERE status = 'completed'"),
    ];
    try {
      expect(seen()).toEqual([0, 0, 0, 0, 0]); // nothing committed mid-turn
      await new Promise((resolve) => setImmediate(resolve));
      expect(seen()).toEqual([1, events.length, 1, 1, 1]);
    } finally {
      reader.close();
    }
    expect(store.checkpointEntries('r1')).toEqual([{ n: 'after' }]);
    expect(store.getRun('r1')).toMatchObject({ status: 'completed', output: 'done' });
  });

  it('a write the database refuses is reported once; the other writes of its turn are kept', () => {
    store.createRun(sampleRun('r1'));
    const [first, second] = emitSampleRun(sampleLog('r1'), 1);
    store.appendEvent(first!);
    store.appendEvent({ ...first!, runId: 'ghost' }); // no such run: the foreign key refuses it
    store.appendEvent(second!);
    store.finishRun('r1', { status: 'completed', output: 'ok', tokenUsage: usage, endedAt: T0 + 1 });
    expect(() => store.flush()).toThrow(/FOREIGN KEY/);
    expect(store.events('r1').map((e) => e.seq)).toEqual([first!.seq, second!.seq]);
    expect(store.getRun('r1')?.status).toBe('completed');
  });

  it('lists runs newest first with limit and offset', () => {
    for (let i = 0; i < 60; i++) store.createRun(sampleRun(`run-${String(i).padStart(2, '0')}`, T0 + i * 1000));
    store.finishRun('run-59', { status: 'cancelled', tokenUsage: emptyUsage(), endedAt: T0 + 59_500 });

    const page = store.listRuns();
    expect(page).toHaveLength(50);
    expect(page[0]).toStrictEqual({
      id: 'run-59',
      kind: 'crew',
      documentId: 'research-crew',
      name: 'Research crew',
      status: 'cancelled',
      startedAt: T0 + 59_000,
      endedAt: T0 + 59_500,
      durationMs: 500,
      tokenUsage: emptyUsage(),
      documentPath: 'crews/research.crew.json',
    });
    expect(page.map((r) => r.startedAt)).toEqual([...page.map((r) => r.startedAt)].sort((a, b) => b - a));
    expect(store.listRuns({ limit: 3, offset: 2 }).map((r) => r.id)).toEqual(['run-57', 'run-56', 'run-55']);
    expect(store.listRuns({ limit: 10, offset: 55 }).map((r) => r.id)).toEqual(['run-04', 'run-03', 'run-02', 'run-01', 'run-00']);
  });

  it('upserts task outputs: a retried task overwrites its earlier output', () => {
    store.createRun(sampleRun('r1'));
    const first: StoredTaskOutput = { runId: 'r1', taskId: 't2', index: 1, agentRole: 'Writer', raw: 'draft', skipped: false, tokenUsage: usage };
    const skipped: StoredTaskOutput = { runId: 'r1', taskId: 't1', index: 0, agentRole: 'Researcher', raw: '', skipped: true, tokenUsage: emptyUsage() };
    store.saveTaskOutput(first);
    store.saveTaskOutput(skipped);
    store.saveTaskOutput({ ...first, raw: '{"title":"final"}', json: { title: 'final', tags: [null] } });

    expect(reopen().taskOutputs('r1')).toStrictEqual([
      skipped,
      { ...first, raw: '{"title":"final"}', json: { title: 'final', tags: [null] } },
    ]);
    expect(store.taskOutputs('r1')[0]).not.toHaveProperty('json');
  });

  it('keeps a JSON null output distinct from no JSON output', () => {
    store.createRun(sampleRun('r1'));
    store.saveTaskOutput({ runId: 'r1', taskId: 't1', index: 0, agentRole: 'A', raw: 'null', json: null, skipped: false, tokenUsage: usage });
    expect(store.taskOutputs('r1')[0]).toHaveProperty('json', null);
  });

  it('records the process and host that runs it, and keeps a live run running', () => {
    store.createRun(sampleRun('r1'));
    // The run's row is committed with its first turn's events (another connection sees it after that).
    store.commitPending();
    const db = openDatabase(workspaceDatabasePath(workspace));
    try {
      expect(db.prepare('SELECT pid, host FROM runs WHERE id = ?').get('r1')).toEqual({ pid: process.pid, host: expect.any(String) });
    } finally {
      db.close();
    }
    expect(store.getRun('r1')?.status).toBe('running');
    expect(store.listRuns()[0]!.status).toBe('running');
  });

  it('does not judge a run from another host, whose process it cannot see', () => {
    store.createRun(sampleRun('r1'));
    const db = openDatabase(workspaceDatabasePath(workspace));
    try {
      // A pid that cannot exist here (above the kernel's pid_max), on some other machine.
      db.prepare("UPDATE runs SET pid = 2147483646, host = 'elsewhere' WHERE id = 'r1'").run();
    } finally {
      db.close();
    }
    expect(store.getRun('r1')?.status).toBe('running');
  });
});
