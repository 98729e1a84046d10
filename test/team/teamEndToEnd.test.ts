import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import type { RuntimeEvent } from '../../shared/events';
import { TeamClient } from '../../runtime/team/teamClient';
import type { TeamRunView } from '../../runtime/team/teamRuns';
import { describeResult, runCli, tempDir, type TempWorkspace } from '../cli/cliHarness';
import { sharedServices, teamTestEnv, type TeamTestEnv } from '../support/teamServices';
import { slowCrew, waitFor } from './teamHarness';
import { createKey, startTeamProcesses } from './teamProcesses';

/**
 * The must-show of issue 31, with real processes: PostgreSQL, Redis, `crewdeck server` and two
 * `crewdeck worker`s on loopback. `npm test` builds dist/ first; run `npm run build` before running
 * this file alone.
 */
let env: TeamTestEnv;
let team: Awaited<ReturnType<typeof startTeamProcesses>>;
let client: TeamClient;
let ws: TempWorkspace;
let pool: pg.Pool;
let apiKey: string;
const LEASE_SECONDS = 3;

beforeAll(async () => {
  env = await teamTestEnv();
  team = await startTeamProcesses(env, 2, LEASE_SECONDS);
  apiKey = await createKey(env, 'deploy');
  client = new TeamClient(team.url, apiKey, 15_000);
  ws = tempDir('crewdeck-team-e2e-');
  pool = new pg.Pool({ connectionString: env.databaseUrl, max: 2 });
}, 90_000);

afterAll(async () => {
  await pool?.end();
  await team?.stop();
  await env?.dispose();
  ws?.remove();
  await (await sharedServices()).stop();
}, 60_000);

const view = (id: string) => client.request<TeamRunView>('GET', `/v1/runs/${id}`);
const allEvents = async (id: string) => (await client.request<{ events: RuntimeEvent[] }>('GET', `/v1/runs/${id}/events`)).events;

describe('a team server with two workers', () => {
  it('deploys a crew with the CLI, completes 20 runs started through the API; a stream cut and resumed with Last-Event-ID has every event once, in order', async () => {
    const file = ws.write('brief.crew.json', slowCrew('brief', 3, 100));
    const deployed = await runCli(['deploy', file, '--server', team.url, '--json'], { env: { CREWDECK_API_KEY: apiKey } });
    expect(deployed.code, describeResult(deployed)).toBe(0);
    expect(JSON.parse(deployed.stdout)).toMatchObject({ id: 'brief', version: 1, kind: 'crew' });

    const runs = await Promise.all(Array.from({ length: 20 }, (_, i) => client.request<{ runId: string }>('POST', '/v1/deployments/brief/runs', { inputs: { topic: `topic ${i}` } })));
    // One stream, opened while its run goes on, cut after 3 events and reopened from the last id it got.
    const watched = runs[19]!.runId;
    const streamed: RuntimeEvent[] = [];
    for await (const event of client.stream(watched)) {
      streamed.push(event);
      if (streamed.length === 3) break;
    }
    for await (const event of client.stream(watched, { after: streamed.at(-1)!.seq })) streamed.push(event);

    const done = await Promise.all(runs.map((r) => waitFor(() => view(r.runId), (v) => ['completed', 'failed', 'cancelled'].includes(v.status), `run ${r.runId}`, 120_000)));
    expect(done.map((r) => r.status)).toEqual(Array(20).fill('completed'));
    const stored = await allEvents(watched);
    expect(streamed.map((e) => e.seq)).toEqual(stored.map((e) => e.seq));
    expect(streamed.map((e) => e.type)).toEqual(stored.map((e) => e.type));
    expect(stored.at(-1)!.type).toBe('run.completed');
  }, 180_000);

  it('kill -9 of the worker running a crew: the other worker finishes it within the lease, every task completed once', async () => {
    await client.request('POST', '/v1/deployments', { documentPath: 'long.crew.json', document: slowCrew('long', 6, 400), files: {} });
    const { runId } = await client.request<{ runId: string }>('POST', '/v1/deployments/long/runs', {});
    await waitFor(async () => (await allEvents(runId)).filter((e) => e.type === 'task.completed').length, (n) => n >= 2, 'two tasks to complete');
    const holder = (await pool.query<{ lease_owner: string | null }>('SELECT lease_owner FROM runs WHERE id = $1', [runId])).rows[0]!.lease_owner!;
    const pid = Number(holder.split(':')[1]);
    const victim = team.workers.find((w) => w.child.pid === pid);
    expect(victim, `the lease holder ${holder} is one of the workers`).toBeDefined();
    const lastBefore = (await allEvents(runId)).at(-1)!.seq;
    const killedAt = Date.now();
    victim!.child.kill('SIGKILL');

    const resumedEvent = await waitFor(async () => (await allEvents(runId)).find((e) => e.seq > lastBefore && e.type === 'run.resumed'), (e) => e !== undefined, 'another worker to continue the run', 60_000);
    const recoveryMs = resumedEvent!.ts - killedAt;
    console.log(`recovery after kill -9: ${recoveryMs} ms (lease ${LEASE_SECONDS} s)`);
    const done = await waitFor(() => view(runId), (v) => v.status === 'completed' || v.status === 'failed', 'the run to end', 60_000);
    expect(done.status).toBe('completed');
    const events = await allEvents(runId);
    const completed = events.filter((e) => e.type === 'task.completed').map((e) => (e as { taskId: string }).taskId);
    expect(completed.sort()).toEqual(['step1', 'step2', 'step3', 'step4', 'step5', 'step6']);
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    await team.addWorker();
  }, 180_000);

  it('kill -9 of the worker running a flow in its for_each: the other worker finishes it, no finished method or item runs again', async () => {
    const llm = { provider: 'scripted', model: 'slow', script: { default: { content: 'chapter text', delayMs: 400 } } };
    const flow = {
      kind: 'flow',
      version: 1,
      id: 'book',
      name: 'Book',
      state: { initial: { chapters: ['Dawn', 'Noon', 'Dusk', 'Night', 'Rain', 'Frost'] } },
      methods: [
        { id: 'outline', name: 'outline', trigger: { start: true }, body: { type: 'llm', prompt: 'Outline the book', llm } },
        { id: 'write', name: 'write_chapters', trigger: { listen: 'outline' }, body: { type: 'for_each', items: '{state.chapters}', concurrency: 1, into: 'texts', body: { type: 'llm', prompt: 'Chapter {index}: {item}', llm } } },
        { id: 'bind', name: 'bind', trigger: { listen: 'write_chapters' }, body: { type: 'set_state', set: { book: '{state.texts}' } } },
      ],
    };
    await client.request('POST', '/v1/deployments', { documentPath: 'book.flow.json', document: flow, files: {} });
    const { runId } = await client.request<{ runId: string }>('POST', '/v1/deployments/book/runs', {});
    const itemsDone = (events: RuntimeEvent[]) => events.filter((e) => e.type === 'flow.item.completed').map((e) => (e as { index: number }).index);
    await waitFor(async () => itemsDone(await allEvents(runId)), (done) => done.length >= 2, 'two chapters to complete');
    const holder = (await pool.query<{ lease_owner: string | null }>('SELECT lease_owner FROM runs WHERE id = $1', [runId])).rows[0]!.lease_owner!;
    const victim = team.workers.find((w) => w.child.pid === Number(holder.split(':')[1]));
    expect(victim, `the lease holder ${holder} is one of the workers`).toBeDefined();
    victim!.child.kill('SIGKILL');
    const before = await allEvents(runId);
    const lastBefore = before.at(-1)!.seq;

    const done = await waitFor(() => view(runId), (v) => v.status === 'completed' || v.status === 'failed', 'the flow to end', 90_000);
    expect(done.status).toBe('completed');
    const events = await allEvents(runId);
    const after = events.filter((e) => e.seq > lastBefore);
    expect(after.some((e) => e.type === 'run.resumed')).toBe(true);
    // Each item ran to completion once; those finished before the kill come back from the checkpoint.
    const ran = events.filter((e) => e.type === 'flow.item.completed' && !(e as { restoredFrom?: string }).restoredFrom).map((e) => (e as { index: number }).index);
    expect(ran.sort()).toEqual([0, 1, 2, 3, 4, 5]);
    const restored = after.filter((e) => e.type === 'flow.item.completed' && (e as { restoredFrom?: string }).restoredFrom === 'checkpoint').map((e) => (e as { index: number }).index);
    expect(restored.sort()).toEqual(itemsDone(before).sort());
    // After the kill, one model call per chapter not yet stored (the one in flight runs again), none for the outline.
    const callsAfter = after.filter((e) => e.type === 'llm.started').length;
    expect(callsAfter).toBe(6 - itemsDone(before).length);
    expect(after.some((e) => e.type === 'flow.method.started' && (e as { methodId: string }).methodId === 'outline')).toBe(false);
    const completedMethods = events.filter((e) => e.type === 'flow.method.completed').map((e) => (e as { methodId: string }).methodId);
    expect(completedMethods).toEqual(['outline', 'write', 'bind']);
    expect(done.state).toMatchObject({ texts: Array(6).fill('chapter text') });
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    await team.addWorker();
  }, 180_000);
});
