import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createApiKey, type KeyScope } from '../../runtime/team/apiKeys';
import { TeamClient } from '../../runtime/team/teamClient';
import { startTeamServer, type TeamServer } from '../../runtime/team/teamServer';
import { startWorker, type TeamWorker } from '../../runtime/team/teamWorker';
import type { ResolveAll } from '../../runtime/tools/guardedFetch';
import { teamTestEnv, type TeamTestEnv } from '../support/teamServices';

/** A team server and workers in this process, on a database of this test's own. */
export interface InProcessTeam {
  env: TeamTestEnv;
  server: TeamServer;
  workers: TeamWorker[];
  pool: pg.Pool;
  url: string;
  /** A client with a new key of `scope`. */
  client(scope: KeyScope, ratePerMinute?: number): Promise<TeamClient>;
  key(scope: KeyScope, ratePerMinute?: number): Promise<string>;
  stop(): Promise<void>;
}

export interface InProcessTeamOptions {
  workers?: number;
  concurrency?: number;
  leaseMs?: number;
  services?: { adminUrl: string; redisUrl: string };
  /** Hosts webhooks may reach whatever their address (the server's --webhook-allow). */
  webhookAllow?: string[];
  /** How the workers resolve webhook host names (no DNS in tests). */
  webhookResolve?: ResolveAll;
  /** The workers' shared memory location (default: a folder in the test's data folder). */
  memoryLocation?: (dataDir: string) => string;
}

export async function startInProcessTeam(options: InProcessTeamOptions = {}): Promise<InProcessTeam> {
  const env = await teamTestEnv(options.services);
  const dataDir = mkdtempSync(join(tmpdir(), 'crewdeck-team-'));
  const log = process.env.TEAM_DEBUG ? (line: string) => console.error(line) : () => undefined;
  const webhookPolicy = { allowedHosts: options.webhookAllow ?? [] };
  const server = await startTeamServer({ databaseUrl: env.databaseUrl, redisUrl: env.redisUrl, port: 0, queuePrefix: env.queuePrefix, webhookPolicy, log });
  const workers: TeamWorker[] = [];
  for (let i = 0; i < (options.workers ?? 1); i++) {
    workers.push(await startWorker({ databaseUrl: env.databaseUrl, redisUrl: env.redisUrl, queuePrefix: env.queuePrefix, concurrency: options.concurrency ?? 4, leaseMs: options.leaseMs ?? 5_000, dataDir: join(dataDir, `w${i}`), memoryDir: options.memoryLocation?.(dataDir) ?? join(dataDir, 'memory'), webhookPolicy, ...(options.webhookResolve ? { webhookResolve: options.webhookResolve } : {}), log }));
  }
  const pool = new pg.Pool({ connectionString: env.databaseUrl, max: 4 });
  pool.on('error', () => undefined);
  pool.on('connect', (c) => c.on('error', () => undefined));
  const key = async (scope: KeyScope, ratePerMinute?: number) => (await createApiKey(pool, { scope, ...(ratePerMinute ? { ratePerMinute } : {}) })).key;
  return {
    env,
    server,
    workers,
    pool,
    url: server.url,
    key,
    client: async (scope, rate) => new TeamClient(server.url, await key(scope, rate), 15_000),
    stop: async () => {
      for (const w of workers) await w.stop();
      await server.stop();
      await pool.end();
      await env.dispose();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Polls `read` until `done` holds (a deadline only to fail a broken test, never a measurement). */
export async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, deadlineMs = 60_000): Promise<T> {
  const end = Date.now() + deadlineMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > end) throw new Error(`gave up waiting for ${what}: last saw ${JSON.stringify(value).slice(0, 500)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A crew of `tasks` tasks whose model answers after `delayMs` (the scripted provider, inline). */
export function slowCrew(id: string, tasks: number, delayMs: number) {
  return {
    kind: 'crew',
    version: 1,
    id,
    name: `Crew ${id}`,
    process: 'sequential',
    inputs: [{ name: 'topic', description: 'What about', default: 'tides' }],
    agents: [{ id: 'w', role: 'Worker', goal: 'Work on {topic}', backstory: 'Steady.', llm: { provider: 'scripted', model: 'slow', script: { default: { content: 'step done', delayMs } } } }],
    tasks: Array.from({ length: tasks }, (_, i) => ({ id: `step${i + 1}`, description: `Do step ${i + 1} about {topic}`, expectedOutput: 'Done', agentId: 'w' })),
  };
}

/** A flow that drafts, asks a person (approved / rejected) and takes one branch. */
export function reviewFlow(id = 'review') {
  return {
    kind: 'flow',
    version: 1,
    id,
    name: 'Review',
    state: { initial: { topic: 'solar' } },
    methods: [
      { id: 'draft', name: 'draft', trigger: { start: true }, body: { type: 'script', code: 'return "Draft about " + state.topic;' } },
      { id: 'review', name: 'review', trigger: { listen: 'draft' }, routes: ['approved', 'rejected'], body: { type: 'human_feedback', message: 'Approve the draft about {state.topic}?', defaultOutcome: 'rejected' } },
      { id: 'publish', name: 'publish', trigger: { listen: { route: 'approved' } }, body: { type: 'script', code: 'return "Published: " + input;' } },
      { id: 'archive', name: 'archive', trigger: { listen: { route: 'rejected' } }, body: { type: 'script', code: 'return "Archived";' } },
    ],
  };
}

/** Publishes a document as a bundle (what `crewdeck deploy` sends). */
export async function publish(client: TeamClient, document: { id: string; kind: string } & Record<string, unknown>): Promise<{ id: string; version: number }> {
  return client.request('POST', '/v1/deployments', { documentPath: `${document.id}.${document.kind}.json`, document, files: {} });
}
