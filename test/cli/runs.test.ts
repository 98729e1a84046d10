import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  assertGapFree,
  describeResult,
  listRuns,
  parseSingleJson,
  runCli,
  runEvents,
  showRun,
  tempDir,
  tempExamples,
  type TempWorkspace,
} from './cliHarness';

// Two runs of the research-brief example in one workspace, shared by the tests below.
let ws: TempWorkspace;
let first: any;
let second: any;

beforeAll(async () => {
  ws = tempExamples();
  const crew = ws.path('research-brief.crew.json');
  const a = await runCli(['run', crew, '--input', 'topic=first topic', '--json'], { cwd: ws.dir });
  expect(a.code, describeResult(a)).toBe(0);
  first = parseSingleJson(a);
  const b = await runCli(['run', crew, '--input', 'topic=second topic', '--json'], { cwd: ws.dir });
  expect(b.code, describeResult(b)).toBe(0);
  second = parseSingleJson(b);
}, 30_000);
afterAll(() => ws?.remove());

describe('crewdeck runs', () => {
  it('list --json lists the runs newest first', async () => {
    const runs = await listRuns(ws.dir);
    expect(runs.map((r) => r.id)).toEqual([second.runId, first.runId]);
    for (const run of runs) {
      expect(run.status).toBe('completed');
      expect(run.name).toBe('Research brief');
      expect(run.documentId).toBe('research-brief');
      expect(run.tokenUsage.requests).toBe(6);
      expect(run.endedAt).toBeGreaterThanOrEqual(run.startedAt);
    }
    expect(runs[0].startedAt).toBeGreaterThanOrEqual(runs[1].startedAt);
    expect(runs[0].tokenUsage).toEqual(second.tokenUsage);
  });

  it('list --limit 1 returns only the newest run', async () => {
    const r = await runCli(['runs', 'list', '--limit', '1', '--json', '--workspace', ws.dir]);
    expect(r.code, describeResult(r)).toBe(0);
    expect(JSON.parse(r.stdout).map((run: { id: string }) => run.id)).toEqual([second.runId]);
  });

  it('list without --json prints a table naming each run', async () => {
    const r = await runCli(['runs', 'list'], { cwd: ws.dir });
    expect(r.code, describeResult(r)).toBe(0);
    expect(r.stdout).toMatch(/^RUN\s+STATUS/);
    expect(r.stdout).toContain(first.runId);
    expect(r.stdout).toContain(second.runId);
    expect(r.stdout.indexOf(second.runId)).toBeLessThan(r.stdout.indexOf(first.runId));
  });

  it('show --json has the status, inputs, output and tasks', async () => {
    const run = await showRun(ws.dir, first.runId);
    expect(run.id).toBe(first.runId);
    expect(run.status).toBe('completed');
    expect(run.inputs).toEqual({ topic: 'first topic' });
    expect(run.output).toBe(first.output);
    expect(run.documentPath).toBe('research-brief.crew.json');
    expect(run).not.toHaveProperty('document');
    expect(run.tasks.map((t: { taskId: string }) => t.taskId)).toEqual(['research', 'brief']);
    expect(run.tasks.map((t: { raw: string }) => t.raw)).toEqual(first.tasks.map((t: { raw: string }) => t.raw));
    const taskUsage = run.tasks.reduce((sum: number, t: { tokenUsage: { totalTokens: number } }) => sum + t.tokenUsage.totalTokens, 0);
    expect(taskUsage).toBe(first.tokenUsage.totalTokens);
  });

  it('show without --json replays the tree and the output', async () => {
    const r = await runCli(['runs', 'show', second.runId, '--workspace', ws.dir]);
    expect(r.code, describeResult(r)).toBe(0);
    expect(r.stdout).toMatch(/▸ task 1\/2 research/);
    expect(r.stdout).toContain('second topic');
    expect(r.stdout).toContain(second.output);
  });

  it('events --json prints one event per line, seq 1..n gap-free, run.started first and run.completed last', async () => {
    const r = await runCli(['runs', 'events', first.runId, '--json', '--workspace', ws.dir]);
    expect(r.code, describeResult(r)).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines.pop()).toBe(''); // newline-terminated
    const events = lines.map((line) => JSON.parse(line));
    expect(events.length).toBeGreaterThan(10);
    assertGapFree(events);
    for (const e of events) {
      expect(e.runId).toBe(first.runId);
      expect(typeof e.ts).toBe('number');
      expect(typeof e.spanId).toBe('string');
    }
    expect(events[0].type).toBe('run.started');
    expect(events[0].inputs).toEqual({ topic: 'first topic' });
    expect(events.at(-1).type).toBe('run.completed');
    expect(events.at(-1).output).toBe(first.output);
    expect(events.at(-1).tokenUsage).toEqual(first.tokenUsage);
    // Every non-root event hangs off a span opened earlier.
    const opened = new Set<string>();
    for (const e of events) {
      if (e.parentSpanId !== undefined) expect(opened.has(e.parentSpanId), `${e.type} #${e.seq} has a known parent`).toBe(true);
      opened.add(e.spanId);
    }
  });

  it('events --after SEQ returns only the later events', async () => {
    const all = await runEvents(ws.dir, first.runId);
    const r = await runCli(['runs', 'events', first.runId, '--after', '3', '--json', '--workspace', ws.dir]);
    expect(r.code, describeResult(r)).toBe(0);
    const later = r.stdout.trim().split('\n').map((line) => JSON.parse(line));
    expect(later.map((e) => e.seq)).toEqual(all.slice(3).map((e) => e.seq));
  });

  it('an unknown run id exits 2 for show and events, answering {"status":"invalid"} with --json', async () => {
    for (const sub of ['show', 'events']) {
      const r = await runCli(['runs', sub, 'run_nope', '--json', '--workspace', ws.dir]);
      expect(r.code, describeResult(r)).toBe(2);
      expect(parseSingleJson(r)).toMatchObject({ status: 'invalid', error: expect.stringContaining('run_nope') });
      const plain = await runCli(['runs', sub, 'run_nope', '--workspace', ws.dir]);
      expect(plain.code, describeResult(plain)).toBe(2);
      expect(plain.stderr).toContain('run_nope');
      expect(plain.stdout).toBe('');
    }
  });

  it('replay of an unknown run id exits 2', async () => {
    const r = await runCli(['replay', 'run_nope', '--from-task', 'brief', '--json', '--workspace', ws.dir]);
    expect(r.code, describeResult(r)).toBe(2);
    expect(parseSingleJson(r).error).toContain('run_nope');
  });

  it('replay from an unknown task exits 2 naming the tasks', async () => {
    const r = await runCli(['replay', first.runId, '--from-task', 'nope', '--workspace', ws.dir]);
    expect(r.code, describeResult(r)).toBe(2);
    expect(r.stderr).toContain('research, brief');
  });

  it('a missing subcommand or run id is a usage error (exit 2)', async () => {
    for (const args of [['runs'], ['runs', 'show'], ['runs', 'frob']]) {
      const r = await runCli([...args, '--workspace', ws.dir]);
      expect(r.code, `${args.join(' ')}: ${describeResult(r)}`).toBe(2);
    }
  });

  it('list in a workspace without runs prints an empty list', async () => {
    const empty = tempDir();
    try {
      expect(await listRuns(empty.dir)).toEqual([]);
      // Reading does not create a workspace database.
      expect(existsSync(empty.path('.crewdeck'))).toBe(false);
      const show = await runCli(['runs', 'show', 'run_x', '--workspace', empty.dir]);
      expect(show.code).toBe(2);
      expect(existsSync(empty.path('.crewdeck'))).toBe(false);
    } finally {
      empty.remove();
    }
  });

  it('a workspace that is missing or not a folder is bad input (exit 2), for runs and run alike', async () => {
    const dir = tempDir();
    try {
      const file = dir.write('afile', 'hi');
      const missing = await runCli(['runs', 'list', '--workspace', dir.path('nowhere')]);
      expect(missing.code).toBe(2);
      expect(missing.stderr).toContain('does not exist');
      const notFolder = await runCli(['run', ws.path('research-brief.crew.json'), '--workspace', file, '--json']);
      expect(notFolder.code).toBe(2);
      expect(parseSingleJson(notFolder).error).toContain('is not a folder');
    } finally {
      dir.remove();
    }
  });
});
