import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RuntimeEvent } from '../../shared/events';

/**
 * Runs the real `crewdeck` CLI (bin/crewdeck.js → dist/cli/main.js) as a child process.
 * `npm test` builds dist/ first; when running vitest directly, run `npm run build` before.
 */

export const repoRoot = resolve(fileURLToPath(new URL('../..', import.meta.url)));
export const binPath = join(repoRoot, 'bin/crewdeck.js');
export const examplesDir = join(repoRoot, 'examples');
const builtMain = join(repoRoot, 'dist/cli/main.js');

export interface CliOptions {
  cwd?: string;
  /** Added to a clean copy of the test process's environment (OPENAI_* removed, NO_COLOR set). */
  env?: Record<string, string | undefined>;
  /** Written to the child's stdin, which is then closed. Without it stdin is closed at once. */
  stdin?: string;
  /** Kill the child (SIGKILL) and fail after this long. Default 15 s. */
  timeoutMs?: number;
}

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  durationMs: number;
}

function assertBuilt(): void {
  if (!existsSync(builtMain)) {
    throw new Error(`The CLI is not built (${builtMain} is missing). Run \`npm run build\` (npm test does it first).`);
  }
}

function cliEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  for (const key of Object.keys(env)) if (key.startsWith('OPENAI_')) delete env[key];
  for (const [key, value] of Object.entries(extra)) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  return env;
}

/** Starts `node bin/crewdeck.js ...args` and returns the child (for tests that signal it). */
export function spawnCli(args: string[], options: CliOptions = {}): ChildProcessWithoutNullStreams {
  assertBuilt();
  const child = spawn(process.execPath, [binPath, ...args], {
    cwd: options.cwd ?? repoRoot,
    env: cliEnv(options.env),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  if (options.stdin !== undefined) child.stdin.end(options.stdin);
  else child.stdin.end();
  return child;
}

/** Collects a child's output until it exits. */
export function finished(child: ChildProcessWithoutNullStreams, timeoutMs = 15_000, label = 'crewdeck'): Promise<CliResult> {
  const started = performance.now();
  return new Promise((done, fail) => {
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail(new Error(`${label} did not exit within ${timeoutMs} ms\nstdout:\n${stdout}\nstderr:\n${stderr}`));
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      fail(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      done({ code, signal, stdout, stderr, durationMs: performance.now() - started });
    });
  });
}

/** Runs the CLI to completion. */
export function runCli(args: string[], options: CliOptions = {}): Promise<CliResult> {
  return finished(spawnCli(args, options), options.timeoutMs, `crewdeck ${args.join(' ')}`);
}

/** For assertion messages: what the CLI printed. */
export function describeResult(r: CliResult): string {
  return `exit ${r.code}${r.signal ? ` (signal ${r.signal})` : ''}\n--- stdout ---\n${r.stdout}\n--- stderr ---\n${r.stderr}`;
}

/** stdout of `run --json` / `replay --json`: exactly one line holding one JSON object. */
export function parseSingleJson(r: CliResult): any {
  const lines = r.stdout.split('\n').filter((line) => line.trim() !== '');
  if (lines.length !== 1) throw new Error(`expected exactly one JSON line on stdout, got ${lines.length}\n${describeResult(r)}`);
  const value = JSON.parse(lines[0]!);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error(`stdout is not a JSON object: ${lines[0]}`);
  return value;
}

/** A temporary workspace; remove() deletes it. */
export interface TempWorkspace {
  dir: string;
  path(...parts: string[]): string;
  write(name: string, value: unknown): string;
  remove(): void;
}

export function tempDir(prefix = 'crewdeck-cli-'): TempWorkspace {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return {
    dir,
    path: (...parts) => join(dir, ...parts),
    write(name, value) {
      const file = join(dir, name);
      writeFileSync(file, typeof value === 'string' ? value : `${JSON.stringify(value, null, 2)}\n`);
      return file;
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** A temporary workspace holding a copy of examples/ (crews, scripts, data; no outputs, no run store). */
export function tempExamples(): TempWorkspace {
  const ws = tempDir('crewdeck-examples-');
  for (const entry of ['research-brief.crew.json', 'product-launch.crew.json', 'scripts', 'data']) {
    cpSync(join(examplesDir, entry), join(ws.dir, entry), { recursive: true });
  }
  return ws;
}

/** `crewdeck runs events <runId> --json` from the workspace, parsed (one JSON event per line). */
export async function runEvents(workspace: string, runId: string): Promise<RuntimeEvent[]> {
  const r = await runCli(['runs', 'events', runId, '--json', '--workspace', workspace]);
  if (r.code !== 0) throw new Error(`runs events failed: ${describeResult(r)}`);
  return r.stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as RuntimeEvent);
}

/** `crewdeck runs show <runId> --json`, parsed. */
export async function showRun(workspace: string, runId: string): Promise<any> {
  const r = await runCli(['runs', 'show', runId, '--json', '--workspace', workspace]);
  if (r.code !== 0) throw new Error(`runs show failed: ${describeResult(r)}`);
  return parseSingleJson(r);
}

/** `crewdeck runs list --json`, parsed. */
export async function listRuns(workspace: string): Promise<any[]> {
  const r = await runCli(['runs', 'list', '--json', '--workspace', workspace]);
  if (r.code !== 0) throw new Error(`runs list failed: ${describeResult(r)}`);
  const lines = r.stdout.split('\n').filter((line) => line !== '');
  if (lines.length !== 1) throw new Error(`runs list --json printed ${lines.length} lines\n${describeResult(r)}`);
  return JSON.parse(lines[0]!) as any[];
}

/** Asserts seq runs 1..n without gaps (throws with the offending seq). */
export function assertGapFree(events: RuntimeEvent[]): void {
  events.forEach((e, i) => {
    if (e.seq !== i + 1) throw new Error(`event #${i + 1} has seq ${e.seq} (${e.type}); seqs are not 1..n gap-free`);
  });
}

/** A minimal crew document with inline scripted models. */
export function scriptedCrew(partial: Record<string, unknown>): Record<string, unknown> {
  return { kind: 'crew', version: 1, id: 'cli-test', name: 'CLI test crew', ...partial };
}
