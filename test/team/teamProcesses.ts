import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli, spawnCli } from '../cli/cliHarness';
import type { TeamTestEnv } from '../support/teamServices';

/** A `crewdeck server` or `crewdeck worker` process, once it said it is ready (`--json`). */
export interface TeamProcess {
  child: ChildProcessWithoutNullStreams;
  ready: Record<string, unknown>;
  output(): string;
  /** SIGTERM and wait for the exit (SIGKILL if it does not go). */
  stop(): Promise<void>;
}

export async function startProcess(args: string[], env: Record<string, string> = {}): Promise<TeamProcess> {
  const child = spawnCli([...args, '--json'], { env });
  let out = '';
  let err = '';
  child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
  const ready = await new Promise<Record<string, unknown>>((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (c: string) => {
      out += c;
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve(JSON.parse(line) as Record<string, unknown>);
    });
    child.once('exit', (code) => reject(new Error(`crewdeck ${args[0]} exited (${code}) before it was ready:\n${out}\n${err}`)));
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    child,
    ready,
    output: () => `${out}\n${err}`,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** A server and `workers` worker processes on the test's database and queue prefix. */
export async function startTeamProcesses(env: TeamTestEnv, workers: number, leaseSeconds: number) {
  const data = mkdtempSync(join(tmpdir(), 'crewdeck-workers-'));
  const common = ['--database', env.databaseUrl, '--redis', env.redisUrl, '--queue-prefix', env.queuePrefix];
  const server = await startProcess(['server', ...common, '--port', '0']);
  const started: TeamProcess[] = [];
  for (let i = 0; i < workers; i++) started.push(await startWorkerProcess(env, leaseSeconds, join(data, `w${i}`)));
  return {
    url: server.ready.url as string,
    server,
    workers: started,
    addWorker: async () => {
      const w = await startWorkerProcess(env, leaseSeconds, join(data, `w${started.length}`));
      started.push(w);
      return w;
    },
    stop: async () => {
      await Promise.all([server, ...started].map((p) => p.stop()));
      rmSync(data, { recursive: true, force: true });
    },
  };
}

function startWorkerProcess(env: TeamTestEnv, leaseSeconds: number, dataDir: string): Promise<TeamProcess> {
  return startProcess(['worker', '--database', env.databaseUrl, '--redis', env.redisUrl, '--queue-prefix', env.queuePrefix, '--concurrency', '4', '--lease-seconds', String(leaseSeconds), '--data', dataDir]);
}

/** `crewdeck server keys create --scope S --json` → the key. */
export async function createKey(env: TeamTestEnv, scope: string): Promise<string> {
  const result = await runCli(['server', 'keys', 'create', '--scope', scope, '--database', env.databaseUrl, '--json']);
  if (result.code !== 0) throw new Error(`keys create failed: ${result.stderr}`);
  return (JSON.parse(result.stdout) as { key: string }).key;
}
