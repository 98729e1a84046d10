import { existsSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHostService } from '../../runtime/host/createHostService';
import type { HostService } from '../../runtime/host/hostService';
import { DocumentOutsideWorkspace, resolveWorkspaceDocument } from '../../runtime/document/workspaceDocument';
import { startScriptedServer, type ScriptedServer } from '../support/scriptedServer';
import { describeResult, runCli } from '../cli/cliHarness';

/** Words only the outside crew holds: a reply that echoes the refused file would show them. */
const OUTSIDE_GOAL = 'OUTSIDE_GOAL_7f3a';

let server: ScriptedServer;
let outside: string;
let workspace: string;
let host: HostService;

const crewFor = (baseUrl: string, goal: string) => ({
  kind: 'crew',
  version: 1,
  id: 'outside',
  name: 'Outside',
  agents: [{ id: 'a', role: 'Writer', goal, llm: { provider: 'openai', model: 'm', baseUrl, maxRetries: 0 } }],
  tasks: [{ id: 't', description: 'Write', expectedOutput: 'text', agentId: 'a' }],
});

beforeAll(async () => {
  server = await startScriptedServer();
  outside = mkdtempSync(join(tmpdir(), 'crewdeck-outside-'));
  workspace = mkdtempSync(join(tmpdir(), 'crewdeck-links-'));
  writeFileSync(join(outside, 'outside.crew.json'), JSON.stringify(crewFor(server.baseUrl, OUTSIDE_GOAL)));
  symlinkSync(join(outside, 'outside.crew.json'), join(workspace, 'linked.crew.json'));
  symlinkSync(outside, join(workspace, 'elsewhere'));
  writeFileSync(join(workspace, 'inside.crew.json'), JSON.stringify(crewFor(server.baseUrl, 'Write inside')));
  host = createHostService({ workspace, transport: 'websocket', env: {} });
});

afterAll(async () => {
  await host?.close();
  await server?.close();
  rmSync(outside, { recursive: true, force: true });
  rmSync(workspace, { recursive: true, force: true });
});

/** Nothing of the outside: no absolute path, not the refused file's content. */
function expectNothingOutside(text: string) {
  expect(text).not.toContain(outside);
  expect(text).not.toContain(workspace);
  expect(text).not.toContain(tmpdir());
  expect(text).not.toContain(OUTSIDE_GOAL);
}

describe('one workspace path check (host)', () => {
  for (const path of ['linked.crew.json', 'elsewhere/outside.crew.json']) {
    it(`runs.start, training.start and tests.start refuse ${path}, call no model and name no absolute path`, async () => {
      const replies = [
        await host.handle('runs.start', { path }),
        await host.handle('training.start', { path, iterations: 1 }),
        await host.handle('tests.start', { path, iterations: 1 }),
      ];
      for (const reply of replies) {
        expect(reply).toMatchObject({ ok: false, error: { code: 'bad_input', message: expect.stringContaining(`${path} is not a document of this workspace`) } });
        expectNothingOutside(JSON.stringify(reply));
      }
      expect(server.requests).toHaveLength(0);
      const runs = await host.handle('runs.list', {});
      expect(runs.ok && (runs.response as { runs: unknown[] }).runs).toEqual([]);
    });
  }

  it('documents.read refuses the same link through the same resolver', async () => {
    const reply = await host.handle('documents.read', { path: 'linked.crew.json' });
    expect(reply).toMatchObject({ ok: false, error: { code: 'bad_input' } });
    expectNothingOutside(JSON.stringify(reply));
  });
});

describe('one workspace path check (CLI)', () => {
  const commands: [string, string[]][] = [
    ['run', ['run', 'linked.crew.json', '--json']],
    ['train', ['train', 'linked.crew.json', '-n', '1', '--json']],
    ['test', ['test', 'linked.crew.json', '-n', '1', '--json']],
    ['export', ['export', 'linked.crew.json', '--to', 'crewai', 'exported', '--json']],
    ['run through a linked folder', ['run', 'elsewhere/outside.crew.json', '--workspace', '.', '--json']],
  ];
  for (const [name, args] of commands) {
    it(`${name}: a symbolic link inside the workspace to a crew outside it exits 2, calls no model, names no absolute path`, async () => {
      const r = await runCli(args, { cwd: workspace });
      expect(r.code, describeResult(r)).toBe(2);
      expect(`${r.stdout}${r.stderr}`).toMatch(/is not a document of this workspace/);
      expectNothingOutside(r.stdout + r.stderr);
      expect(server.requests).toHaveLength(0);
    });
  }

  it('export wrote nothing', () => {
    expect(existsSync(join(workspace, 'exported'))).toBe(false);
  });

  it('a crew inside the workspace still runs (the model is called)', async () => {
    server.enqueue({ content: 'inside text' });
    const r = await runCli(['run', 'inside.crew.json', '--json'], { cwd: workspace });
    expect(r.code, describeResult(r)).toBe(0);
    expect(server.requests.length).toBeGreaterThan(0);
    server.requests.length = 0;
  });
});

describe('one workspace path check (replay)', () => {
  it('replaying a run whose document is now a link to a crew outside is refused, with no model call and no absolute path', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'crewdeck-replay-link-'));
    try {
      writeFileSync(join(dir, 'r.crew.json'), JSON.stringify(crewFor(server.baseUrl, 'Write inside')));
      server.enqueue({ content: 'first' });
      const first = await runCli(['run', 'r.crew.json', '--json'], { cwd: dir });
      expect(first.code, describeResult(first)).toBe(0);
      const runId = JSON.parse(first.stdout).runId as string;
      server.requests.length = 0;

      rmSync(join(dir, 'r.crew.json'));
      symlinkSync(join(outside, 'outside.crew.json'), join(dir, 'r.crew.json'));
      const cli = await runCli(['replay', runId, '--from-task', 't', '--json'], { cwd: dir });
      expect(cli.code, describeResult(cli)).toBe(2);
      expect(cli.stdout).toMatch(/r\.crew\.json is not a document of this workspace/);
      expectNothingOutside((cli.stdout + cli.stderr).split(dir).join('<dir>'));
      expect(cli.stdout + cli.stderr).not.toContain(dir);

      const linkedHost = createHostService({ workspace: dir, transport: 'websocket', env: {} });
      try {
        const reply = await linkedHost.handle('runs.replay', { runId, fromTaskId: 't' });
        expect(reply).toMatchObject({ ok: false, error: { code: 'bad_input', message: expect.stringContaining('r.crew.json is not a document of this workspace') } });
        expect(JSON.stringify(reply)).not.toContain(dir);
        expectNothingOutside(JSON.stringify(reply));
      } finally {
        await linkedHost.close();
      }
      expect(server.requests).toHaveLength(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('resolveWorkspaceDocument', () => {
  it('refuses .., absolute paths outside, links out and links into .crewdeck/', () => {
    symlinkSync(join(workspace, '.crewdeck'), join(workspace, 'data'));
    for (const p of ['../x.crew.json', join(outside, 'outside.crew.json'), 'linked.crew.json', 'elsewhere/outside.crew.json', 'data/crewdeck.db', '.crewdeck/x.crew.json']) {
      expect(() => resolveWorkspaceDocument(workspace, p), p).toThrow(DocumentOutsideWorkspace);
    }
    expect(resolveWorkspaceDocument(workspace, 'inside.crew.json')).toEqual({ file: join(workspace, 'inside.crew.json'), shown: 'inside.crew.json' });
    expect(resolveWorkspaceDocument(workspace, join(workspace, 'sub', 'new.crew.json')).shown).toBe('sub/new.crew.json');
  });
});
