import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { EventOf } from '../../shared/events';
import { workspaceDatabasePath } from '../../runtime/store/database';
import { loadFlowCheckpoint } from '../../runtime/flow/flowCheckpoint';
import { startScriptedServer, type ScriptedServer } from '../support/scriptedServer';
import { describeResult, finished, listRuns, parseSingleJson, runCli, runEvents, spawnCli, tempDir, type TempWorkspace } from './cliHarness';

/**
 * A flow fork (`crewdeck replay --from-method --set-state`) killed with a real SIGKILL while it is still
 * replaying the methods before its fork method: `crewdeck resume` keeps the fork's state edits and its
 * recorded outcomes (the methods before the fork make no model call in the resumed session either).
 */
let server: ScriptedServer;
let ws: TempWorkspace | undefined;

beforeAll(async () => {
  server = await startScriptedServer();
  server.setHandler((body) => {
    const user = (body.messages as { role: string; content: string }[]).filter((m) => m.role === 'user').map((m) => m.content).join('\n');
    if (user.includes('[M1]')) return { content: 'Owls hunt at night.' };
    if (user.includes('[M2]')) return { content: `Draft for ${/for (\S+)/.exec(user)?.[1] ?? '?'}.` };
    if (user.includes('[M3]')) return { content: 'Polished.' };
    return undefined;
  });
});
afterAll(() => server.close());
afterEach(() => {
  ws?.remove();
  ws = undefined;
  server.requests.length = 0;
});

const prompts = () =>
  server.requests
    .filter((r) => r.path === '/v1/chat/completions')
    .map((r) => (r.body.messages as { role: string; content: string }[]).filter((m) => m.role === 'user').map((m) => m.content).join('\n'));

const TICKS = 40;

function forkWorkspace(): TempWorkspace {
  const dir = (ws = tempDir('crewdeck-forkkill-'));
  dir.write('crewdeck.json', { version: 1, models: { default: 'srv', profiles: { srv: { provider: 'openai', model: 'm', baseUrl: server.baseUrl } } } });
  dir.write('ticks.flow.json', {
    kind: 'flow',
    version: 1,
    id: 'ticks',
    name: 'Ticks',
    // A large state field: every replayed call stores it (its event and the checkpoint), so replaying the
    // 40 ticks before the fork method takes long enough to be killed in.
    state: { initial: { n: 0, topic: 'owls', audience: 'kids', notes: 'x'.repeat(300_000) } },
    methods: [
      {
        id: 'tick',
        name: 'tick',
        trigger: { start: true, listen: { route: 'again' } },
        routes: ['again', 'done'],
        body: { type: 'script', code: `state.n = state.n + 1; return { output: 'tick ' + state.n, route: state.n < ${TICKS} ? 'again' : 'done' };` },
      },
      { id: 'research', name: 'research', trigger: { listen: { route: 'done' } }, body: { type: 'llm', prompt: '[M1] One fact about {state.topic}.' } },
      { id: 'draft', name: 'draft', trigger: { listen: 'research' }, body: { type: 'llm', prompt: '[M2] Draft about {state.topic} for {state.audience} using: {input}' } },
      { id: 'polish', name: 'polish', trigger: { listen: 'draft' }, body: { type: 'llm', prompt: '[M3] Polish: {input}' } },
    ],
  });
  return dir;
}

interface ForkProgress {
  runId: string;
  callsByMethod: Record<string, number>;
}

/** How far the fork run's checkpoint is, read from the workspace database. */
function forkProgress(db: Database.Database, run: { id: string }): ForkProgress {
  // The checkpoint as stored, with the entries appended since folded in (as a resume reads it).
  const cp = loadFlowCheckpoint(
    {
      loadCheckpoint: (id) => {
        const row = db.prepare('SELECT checkpoint FROM flow_checkpoints WHERE run_id = ?').get(id) as { checkpoint: string } | undefined;
        return row ? JSON.parse(row.checkpoint) : undefined;
      },
      checkpointEntries: (id) => (db.prepare('SELECT entry FROM checkpoint_entries WHERE run_id = ? ORDER BY seq').all(id) as { entry: string }[]).map((r) => JSON.parse(r.entry)),
    },
    run.id,
  );
  return { runId: run.id, callsByMethod: cp?.callsByMethod ?? {} };
}

/**
 * Starts the fork and SIGKILLs it while it replays the ticks: as soon as its run row appears (a cheap
 * query on one open connection, polled on every turn of the event loop), the test takes the database's
 * write lock, so the fork's next write waits; it is killed there, before its fork method ("draft") was
 * triggered. Returns undefined if the fork got past the ticks first.
 */
async function forkKilledBeforeDraft(workspace: TempWorkspace, recorded: string): Promise<string | undefined> {
  const db = new Database(workspaceDatabasePath(workspace.dir), { fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  const forkRows = db.prepare('SELECT id FROM runs WHERE replay_of_run_id = ?');
  const known = new Set((forkRows.all(recorded) as { id: string }[]).map((r) => r.id));
  const child = spawnCli(['replay', recorded, '--from-method', 'draft', '--set-state', 'audience=EDITED-ADULTS', '--json'], { cwd: workspace.dir });
  const exited = finished(child, 60_000);
  let killedAt: ForkProgress | undefined;
  let childExited = false;
  void exited.then(() => (childExited = true));
  try {
    while (!killedAt && !childExited) {
      await new Promise((r) => setImmediate(r));
      const fork = (forkRows.all(recorded) as { id: string }[]).find((r) => !known.has(r.id));
      if (!fork) continue;
      db.exec('BEGIN IMMEDIATE'); // the fork's next write waits on this lock
      killedAt = forkProgress(db, fork);
      expect(() => process.kill(child.pid!, 0)).not.toThrow(); // still running, not exited
      child.kill('SIGKILL');
      await exited;
      db.exec('ROLLBACK');
    }
  } finally {
    db.close();
  }
  const result = await exited;
  if (!killedAt) return undefined; // the fork finished before its row was seen
  expect(result.signal, describeResult(result)).toBe('SIGKILL');
  return killedAt.callsByMethod.draft === undefined ? killedAt.runId : undefined;
}

describe('crewdeck resume of a flow fork killed before its fork method started', () => {
  it('keeps the state edits and the recorded outcomes: the resumed fork asks no model for the methods before it', async () => {
    const workspace = forkWorkspace();
    const first = parseSingleJson(await runCli(['run', workspace.path('ticks.flow.json'), '--json'], { cwd: workspace.dir, timeoutMs: 90_000 }));
    expect(first.status).toBe('completed');
    expect(first.state.n).toBe(TICKS);
    expect(prompts().map((p) => p.slice(0, 4))).toEqual(['[M1]', '[M2]', '[M3]']);

    // The kill lands while the ticks are replayed (almost always on the first try; a fork that got past
    // them before the lock is tried again).
    let forkId: string | undefined;
    for (let attempt = 0; attempt < 8 && !forkId; attempt++) forkId = await forkKilledBeforeDraft(workspace, first.runId);
    expect(forkId, 'the fork was never killed before its fork method').toBeDefined();
    const killed = (await listRuns(workspace.dir)).find((r) => r.id === forkId);
    expect(killed.status).toBe('interrupted');
    const before = await runEvents(workspace.dir, forkId!);
    expect(before.some((e) => e.type === 'flow.method.started' && e.methodId === 'draft')).toBe(false);
    expect(before[0]).toMatchObject({ type: 'run.started', replayOf: { runId: first.runId, fromMethodId: 'draft', edits: { audience: 'EDITED-ADULTS' } } });

    server.requests.length = 0;
    const r = await runCli(['resume', forkId!, '--json', '--workspace', workspace.dir], { timeoutMs: 90_000 });
    expect(r.code, describeResult(r)).toBe(0);
    const done = parseSingleJson(r);
    expect(done.status).toBe('completed');
    // The edit holds in the resumed session: the draft was written for the edited audience.
    expect(done.state.audience).toBe('EDITED-ADULTS');
    expect(done.state.n).toBe(TICKS);
    const asked = prompts();
    // research completed before the fork point in the recording: replayed, not asked again.
    expect(asked.map((p) => p.slice(0, 4))).toEqual(['[M2]', '[M3]']);
    expect(asked[0]).toContain('for EDITED-ADULTS');
    expect(asked[0]).toContain('using: Owls hunt at night.');
    expect(done.output).toBe('Polished.');

    const events = await runEvents(workspace.dir, forkId!);
    const completed = events.filter((e): e is EventOf<'flow.method.completed'> => e.type === 'flow.method.completed');
    expect(completed.filter((e) => e.methodId === 'research').map((e) => e.restoredFrom)).toEqual([first.runId]);
    expect(completed.filter((e) => e.methodId === 'draft').map((e) => e.restoredFrom)).toEqual([undefined]);
    expect(events.filter((e) => e.type === 'run.resumed')).toHaveLength(1);
    expect(events.at(-1)!.type).toBe('run.completed');
  }, 240_000);
});
