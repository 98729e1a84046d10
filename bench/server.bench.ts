/**
 * bench:server — the team server on this machine: PostgreSQL and Redis of its own (Debian's packages),
 * `crewdeck server` in this process, `crewdeck worker` processes, a crew whose model (the scripted
 * provider) answers each call after 200 ms. Prints the figures docs/PERFORMANCE.md quotes:
 * runs per minute with 1, 2 and 4 workers; kickoff → first event p50/p99, with no backlog and with 1,000
 * runs waiting for a person; events per second into PostgreSQL through the team store's write queue against
 * a raw INSERT of the same rows; recovery after kill -9 of the worker running a run; lag from an event's
 * commit (its NOTIFY) to its arrival on 100 open SSE streams.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { get as httpGet } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { RuntimeEvent } from '../shared/events';
import { createApiKey } from '../runtime/team/apiKeys';
import { TeamClient } from '../runtime/team/teamClient';
import { startTeamServer, type TeamServer } from '../runtime/team/teamServer';
import { PostgresWriter } from '../runtime/store/postgresRunStore';
import { startPostgres, startRedis, teamTestEnv, type TeamTestEnv } from '../test/support/teamServices';

const MODEL_MS = 200;
const PER_WORKER = 4;
const bin = join(import.meta.dirname, '..', 'bin', 'crewdeck.js');

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function crew(id: string, tasks: number) {
  return {
    kind: 'crew',
    version: 1,
    id,
    name: id,
    process: 'sequential',
    agents: [{ id: 'w', role: 'Worker', goal: 'Work', backstory: 'Steady.', llm: { provider: 'scripted', model: 'bench', script: { default: { content: 'done', delayMs: MODEL_MS } } } }],
    tasks: Array.from({ length: tasks }, (_, i) => ({ id: `t${i + 1}`, description: `Step ${i + 1}`, expectedOutput: 'Done', agentId: 'w' })),
  };
}

interface Team {
  env: TeamTestEnv;
  server: TeamServer;
  client: TeamClient;
  pool: pg.Pool;
  workers: ChildProcess[];
  data: string;
  addWorker(leaseSeconds?: number): Promise<ChildProcess>;
  stop(): Promise<void>;
}

async function startTeam(services: { adminUrl: string; redisUrl: string }, workers: number, leaseSeconds = 20): Promise<Team> {
  const env = await teamTestEnv(services);
  const server = await startTeamServer({ databaseUrl: env.databaseUrl, redisUrl: env.redisUrl, port: 0, queuePrefix: env.queuePrefix, log: () => undefined });
  const pool = new pg.Pool({ connectionString: env.databaseUrl, max: 4 });
  const client = new TeamClient(server.url, (await createApiKey(pool, { scope: 'deploy', ratePerMinute: 1_000_000 })).key, 60_000);
  const data = mkdtempSync(join(tmpdir(), 'crewdeck-bench-'));
  const list: ChildProcess[] = [];
  const addWorker = async (lease = leaseSeconds) => {
    const child = spawn(process.execPath, [bin, 'worker', '--database', env.databaseUrl, '--redis', env.redisUrl, '--queue-prefix', env.queuePrefix, '--concurrency', String(PER_WORKER), '--lease-seconds', String(lease), '--data', join(data, `w${list.length}`), '--json'], { stdio: ['ignore', 'pipe', 'ignore'] });
    await new Promise<void>((resolve, reject) => {
      child.stdout!.once('data', () => resolve());
      child.once('exit', (code) => reject(new Error(`worker exited ${code}`)));
    });
    list.push(child);
    return child;
  };
  for (let i = 0; i < workers; i++) await addWorker();
  return {
    env,
    server,
    client,
    pool,
    workers: list,
    data,
    addWorker,
    stop: async () => {
      for (const w of list) w.kill('SIGKILL');
      await server.stop();
      await pool.end();
      await env.dispose();
      rmSync(data, { recursive: true, force: true });
    },
  };
}

async function publish(team: Team, doc: ReturnType<typeof crew>): Promise<void> {
  await team.client.request('POST', '/v1/deployments', { documentPath: `${doc.id}.crew.json`, document: doc, files: {} });
}

async function waitCompleted(pool: pg.Pool, count: number): Promise<void> {
  for (;;) {
    const n = (await pool.query<{ n: number }>("SELECT count(*)::int AS n FROM runs WHERE status IN ('completed', 'failed')")).rows[0]!.n;
    if (n >= count) return;
    await sleep(20);
  }
}

/** Runs a minute, from the first kickoff to the last completion of `runs` runs started at once. */
async function throughput(services: { adminUrl: string; redisUrl: string }, workers: number, runs: number): Promise<number> {
  const team = await startTeam(services, workers);
  try {
    await publish(team, crew('tp', 2));
    // One run first, so each worker's deployment folder is written before the clock starts.
    await team.client.request('POST', '/v1/deployments/tp/runs', {});
    await waitCompleted(team.pool, 1);
    const started = performance.now();
    await Promise.all(Array.from({ length: runs }, () => team.client.request('POST', '/v1/deployments/tp/runs', {})));
    await waitCompleted(team.pool, runs + 1);
    const failed = (await team.pool.query<{ n: number }>("SELECT count(*)::int AS n FROM runs WHERE status = 'failed'")).rows[0]!.n;
    if (failed > 0) throw new Error(`${failed} runs failed`);
    return (runs / ((performance.now() - started) / 1000)) * 60;
  } finally {
    await team.stop();
  }
}

/** Kickoff (before the POST) → the run's first event's time, one run at a time. */
async function kickoffLatency(team: Team, samples: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < samples; i++) {
    const before = Date.now();
    const { runId } = await team.client.request<{ runId: string }>('POST', '/v1/deployments/kick/runs', {});
    for (;;) {
      const first = (await team.pool.query<{ ts: number }>('SELECT ts FROM events WHERE run_id = $1 AND seq = 1', [runId])).rows[0];
      if (first) {
        out.push(first.ts - before);
        break;
      }
      await sleep(2);
    }
    await waitRun(team.pool, runId);
  }
  return out;
}

async function waitRun(pool: pg.Pool, runId: string): Promise<void> {
  for (;;) {
    const row = (await pool.query<{ status: string }>('SELECT status FROM runs WHERE id = $1', [runId])).rows[0];
    if (row && ['completed', 'failed', 'cancelled'].includes(row.status)) return;
    await sleep(10);
  }
}

/** 1,000 runs waiting for a person (with their events), as a resumable flow would leave them. */
async function addWaitingBacklog(pool: pg.Pool, deploymentId: string): Promise<void> {
  await pool.query(
    `INSERT INTO runs (id, kind, document_id, name, status, inputs, created_at, started_at, deployment_id, version, request, pending, last_seq)
     SELECT 'backlog_' || i, 'crew', $1, 'backlog', 'waiting', '{}', $2, $2, $1, 1, '{"kind":"start"}', jsonb_build_object('requestId', 'r' || i, 'kind', 'feedback', 'prompt', 'ok?'), 20
     FROM generate_series(1, 1000) i`,
    [deploymentId, Date.now()],
  );
  await pool.query(
    `INSERT INTO events (run_id, seq, type, ts, span_id, payload)
     SELECT 'backlog_' || i, s, 'llm.completed', $1, 's' || s, '{"model":"x","content":"` + 'y'.repeat(200) + `"}' FROM generate_series(1, 1000) i, generate_series(1, 20) s`,
    [Date.now()],
  );
}

/** Events a second through the team store's ordered write queue, and through plain INSERTs of the same rows. */
async function eventRates(services: { adminUrl: string; redisUrl: string }, count: number): Promise<{ queue: number; raw: number }> {
  const env = await teamTestEnv(services);
  const pool = new pg.Pool({ connectionString: env.databaseUrl, max: 4 });
  try {
    const insertRun = (id: string) =>
      pool.query(`INSERT INTO runs (id, kind, document_id, name, status, inputs, created_at, request, lease_owner, lease_until) VALUES ($1, 'crew', 'd', 'n', 'running', '{}', 0, '{"kind":"start"}', 'bench', now() + interval '1 hour')`, [id]);
    await insertRun('q');
    await insertRun('r');
    const events = (runId: string) =>
      Array.from({ length: count }, (_, i) => ({ type: 'llm.completed', runId, seq: i + 1, ts: Date.now(), spanId: `s${i}`, model: 'bench', content: 'x'.repeat(200), usage: { promptTokens: 10, completionTokens: 5 } }) as unknown as RuntimeEvent);
    // The queue: one event per turn of the event loop, as a run emits them (the queue groups what waits).
    const writer = new PostgresWriter(pool, 'q', 'bench', 3_600_000, { onLeaseLost: () => undefined, onFailure: () => undefined });
    const qEvents = events('q');
    let t = performance.now();
    for (let i = 0; i < qEvents.length; i += 1) {
      writer.push({ kind: 'events', runId: 'q', events: [qEvents[i]!] });
      if (i % 50 === 49) await new Promise((r) => setImmediate(r));
    }
    await writer.drain();
    const queue = count / ((performance.now() - t) / 1000);
    // Raw: the same rows, 50 to an INSERT, one transaction each, on one connection.
    const rEvents = events('r');
    const client = await pool.connect();
    t = performance.now();
    for (let i = 0; i < rEvents.length; i += 50) {
      const chunk = rEvents.slice(i, i + 50);
      const values: unknown[] = [];
      const rows = chunk.map((e, j) => {
        const { type, runId, seq, ts, spanId, ...payload } = e as unknown as Record<string, unknown>;
        values.push(runId, seq, type, ts, spanId, JSON.stringify(payload));
        return `($${j * 6 + 1}, $${j * 6 + 2}, $${j * 6 + 3}, $${j * 6 + 4}, $${j * 6 + 5}, $${j * 6 + 6})`;
      });
      await client.query(`INSERT INTO events (run_id, seq, type, ts, span_id, payload) VALUES ${rows.join(', ')}`, values);
    }
    const raw = count / ((performance.now() - t) / 1000);
    client.release();
    return { queue, raw };
  } finally {
    await pool.end();
    await env.dispose();
  }
}

/** kill -9 of the worker holding a run → the run's next event (written by the other worker). */
async function recovery(services: { adminUrl: string; redisUrl: string }, leaseSeconds: number): Promise<number> {
  const team = await startTeam(services, 2, leaseSeconds);
  try {
    await publish(team, crew('long', 8));
    const { runId } = await team.client.request<{ runId: string }>('POST', '/v1/deployments/long/runs', {});
    for (;;) {
      const n = (await team.pool.query<{ n: number }>("SELECT count(*)::int AS n FROM events WHERE run_id = $1 AND type = 'task.completed'", [runId])).rows[0]!.n;
      if (n >= 2) break;
      await sleep(20);
    }
    const owner = (await team.pool.query<{ lease_owner: string }>('SELECT lease_owner FROM runs WHERE id = $1', [runId])).rows[0]!.lease_owner;
    const victim = team.workers.find((w) => w.pid === Number(owner.split(':')[1]))!;
    const last = (await team.pool.query<{ s: number }>('SELECT max(seq) AS s FROM events WHERE run_id = $1', [runId])).rows[0]!.s;
    const killed = Date.now();
    victim.kill('SIGKILL');
    for (;;) {
      const next = (await team.pool.query<{ ts: number }>("SELECT ts FROM events WHERE run_id = $1 AND seq > $2 AND type = 'run.resumed'", [runId, last])).rows[0];
      if (next) {
        await waitRun(team.pool, runId);
        return next.ts - killed;
      }
      await sleep(20);
    }
  } finally {
    await team.stop();
  }
}

/** Commit (the NOTIFY of the commit, heard here) → arrival on each of `streams` SSE streams of one run. */
async function streamLag(services: { adminUrl: string; redisUrl: string }, streams: number): Promise<number[]> {
  const team = await startTeam(services, 1);
  const listener = new pg.Client({ connectionString: team.env.databaseUrl });
  try {
    await publish(team, crew('lag', 6));
    const { runId } = await team.client.request<{ runId: string }>('POST', '/v1/deployments/lag/runs', {});
    const committed = new Map<number, number>();
    await listener.connect();
    listener.on('notification', (m) => {
      const [id, seq] = (m.payload ?? '').split(':');
      if (id === runId) committed.set(Number(seq), performance.now());
    });
    await listener.query('LISTEN crewdeck_events');
    const arrivals: { seq: number; at: number }[][] = [];
    // Plain node:http clients, one socket each (fetch's pool would hold streams back behind one another).
    const key = (team.client as unknown as { key: string }).key;
    await Promise.all(Array.from({ length: streams }, (_, i) => sseArrivals(`${team.server.url}/v1/runs/${runId}/stream`, key, (arrivals[i] = []))));
    // Each commit carries the events up to its seq: an event's commit is the first announced seq ≥ it.
    const commits = [...committed.entries()].sort((a, b) => a[0] - b[0]);
    const lags: number[] = [];
    for (const list of arrivals) {
      for (const { seq, at } of list) {
        const commit = commits.find(([s]) => s >= seq);
        if (commit && at >= commit[1]) lags.push(at - commit[1]);
      }
    }
    return lags;
  } finally {
    await listener.end();
    await team.stop();
  }
}

/** Reads an SSE stream to its end, noting when each event arrived. */
function sseArrivals(url: string, key: string, out: { seq: number; at: number }[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = httpGet(url, { agent: false, headers: { authorization: `Bearer ${key}`, accept: 'text/event-stream' } }, (res) => {
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const id = /^id: (\d+)$/m.exec(block);
          if (id) out.push({ seq: Number(id[1]), at: performance.now() });
        }
      });
      res.on('end', () => resolve());
    });
    req.on('error', reject);
  });
}

async function main(): Promise<void> {
  const [postgres, redis] = await Promise.all([startPostgres(), startRedis()]);
  const services = { adminUrl: postgres.url(), redisUrl: redis.url };
  const load = () => loadavg()[0]!.toFixed(2);
  console.log(`bench:server — node ${process.version}, load ${load()}, model ${MODEL_MS} ms a call, ${PER_WORKER} runs at once per worker`);
  // BENCH_ONLY=throughput,kickoff,events,lag,recovery runs some of the parts.
  const only = new Set((process.env.BENCH_ONLY ?? 'throughput,kickoff,events,lag,recovery').split(','));
  try {
    if (only.has('throughput')) await throughputs(load);
    if (only.has('kickoff')) await kickoffs(services, load);
    if (only.has('events')) {
      const events = await eventRates(services, 20_000);
      console.log(`events/s into PostgreSQL: write queue ${events.queue.toFixed(0)}, raw INSERT of the same rows (50 a statement) ${events.raw.toFixed(0)} (${(events.queue / events.raw).toFixed(2)}x)`);
    }
    if (only.has('lag')) {
      for (const streams of (process.env.BENCH_STREAMS ?? "1,100").split(",").map(Number)) {
        const lags = await streamLag(services, streams);
        console.log(`commit → arrival on ${streams} SSE stream(s): p50 ${quantile(lags, 0.5).toFixed(1)} ms, p95 ${quantile(lags, 0.95).toFixed(1)} ms, p99 ${quantile(lags, 0.99).toFixed(1)} ms (${lags.length} deliveries; load ${load()})`);
      }
    }
    if (only.has('recovery')) for (const lease of [5, 20]) console.log(`recovery after kill -9 (lease ${lease} s): ${(await recovery(services, lease)) / 1000} s (load ${load()})`);
  } finally {
    await Promise.all([postgres.stop(), redis.stop()]);
  }

  async function throughputs(load: () => string): Promise<void> {
    const runs = Number(process.env.BENCH_RUNS ?? 64);
    const rates: Record<number, number> = {};
    for (const workers of [1, 2, 4]) {
      rates[workers] = await throughput(services, workers, runs);
      console.log(`runs/min, ${workers} worker(s), ${runs} runs of 2 tasks: ${rates[workers]!.toFixed(0)} (load ${load()})`);
    }
    console.log(`2 workers / 1 worker: ${(rates[2]! / rates[1]!).toFixed(2)}x; 4 / 1: ${(rates[4]! / rates[1]!).toFixed(2)}x`);
  }
}

async function kickoffs(services: { adminUrl: string; redisUrl: string }, load: () => string): Promise<void> {
  const team = await startTeam(services, 2);
  try {
    await publish(team, crew('kick', 1));
    await kickoffLatency(team, 3);
    const empty = await kickoffLatency(team, 40);
    await addWaitingBacklog(team.pool, 'kick');
    const backlog = await kickoffLatency(team, 40);
    console.log(`kickoff → first event, no backlog: p50 ${quantile(empty, 0.5)} ms, p99 ${quantile(empty, 0.99)} ms (40 runs)`);
    console.log(`kickoff → first event, 1,000 runs waiting: p50 ${quantile(backlog, 0.5)} ms, p99 ${quantile(backlog, 0.99)} ms (40 runs; load ${load()})`);
  } finally {
    await team.stop();
  }
}

await main();
process.exit(0);
