import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RuntimeEvent } from '../../shared/events';
import type { HostPush, HostResponse } from '../../shared/host-api';
import { createHostService } from '../../runtime/host/createHostService';
import type { HostService } from '../../runtime/host/hostService';
import { WorkspaceTrust } from '../../runtime/trust/workspaceTrust';
import { loadWorkspaceSettings } from '../../runtime/document/loadDocument';
import { startScriptedServer, type ScriptedServer } from '../support/scriptedServer';
import { tempDir, type TempWorkspace } from '../cli/cliHarness';

/**
 * A loopback base URL the user types into Settings is theirs (issue 32): saved through `settings.save`
 * it needs no trust. The renderer is untrusted and `settings.save` carries the whole file, so these are
 * the attacks a page (or a careless Save) could try on a base URL a cloned workspace brought: saving it
 * again, removing it and adding it back (in one host or across a restart), copying it out of a crew,
 * spelling its host another way, dropping its key. Each leaves it held, and the server sees nothing.
 */
let configDir: string;
const savedConfigDir = process.env.CREWDECK_CONFIG_DIR;
let server: ScriptedServer;
let ws: TempWorkspace;
const hosts: HostService[] = [];

beforeEach(async () => {
  // A fresh home: no model servers of the user's (the suite's default user names loopback ones).
  configDir = mkdtempSync(join(tmpdir(), 'crewdeck-entered-config-'));
  process.env.CREWDECK_CONFIG_DIR = configDir;
  server = await startScriptedServer({ models: ['local-model'] });
  server.setHandler(() => ({ content: 'Hello from the local model.' }));
  ws = tempDir('crewdeck-entered-');
  ws.write('hello.crew.json', {
    kind: 'crew',
    version: 1,
    id: 'hello',
    name: 'Hello',
    agents: [{ id: 'a', role: 'Greeter', goal: 'Greet' }],
    tasks: [{ id: 't', description: 'Say hello', expectedOutput: 'a greeting', agentId: 'a' }],
  });
});

afterEach(async () => {
  for (const host of hosts.splice(0)) await host.close();
  await server.close();
  ws.remove();
  process.env.CREWDECK_CONFIG_DIR = savedConfigDir;
  rmSync(configDir, { recursive: true, force: true });
});

function open(): { host: HostService; pushes: HostPush[]; call: <T = any>(channel: string, request?: unknown) => Promise<T> } {
  const host = createHostService({ workspace: ws.dir, transport: 'websocket', env: {} });
  hosts.push(host);
  const pushes: HostPush[] = [];
  host.subscribe((p) => pushes.push(p));
  const call = async (channel: string, request: unknown = {}) => {
    const result = await host.handle(channel, request);
    if (!result.ok) throw new Error(`${channel}: ${result.error.code}: ${result.error.message}`);
    return result.response as any;
  };
  return { host, pushes, call };
}

const profile = (baseUrl: string, extra: Record<string, unknown> = {}) => ({ provider: 'openai', model: 'local-model', baseUrl, ...extra });
const settingsWith = (profiles: Record<string, unknown>, other: Record<string, unknown> = {}) => ({ version: 1, models: { default: Object.keys(profiles)[0], profiles }, ...other });
const chatRequests = () => server.requests.filter((r) => r.path.endsWith('/chat/completions'));

async function runEnd(pushes: HostPush[], runId: string): Promise<RuntimeEvent> {
  for (;;) {
    const end = pushes.flatMap((p) => (p.kind === 'event' && p.event.runId === runId ? [p.event] : [])).find((e) => /^run\.(completed|failed|cancelled)$/.test(e.type));
    if (end) return end;
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('a loopback base URL typed in Settings is the user’s own', () => {
  it('is recorded on save: Test connection and a run on the default profile reach it with no trust step', async () => {
    const { call, pushes } = open();
    const saved = await call('settings.save', { settings: settingsWith({ local: profile(server.baseUrl) }) });
    expect(saved).toEqual({ problems: [], entered: [server.baseUrl] });

    const status: HostResponse<'trust.status'> = await call('trust.status');
    expect(status).toMatchObject({ needed: true, trusted: true });

    const test = await call('settings.testConnection', { model: 'local' });
    expect(test).toMatchObject({ ok: true, models: ['local-model'], method: 'models' });

    const { runId } = await call('runs.start', { path: 'hello.crew.json', inputs: {} });
    expect((await runEnd(pushes, runId)).type).toBe('run.completed');
    expect(chatRequests().length).toBeGreaterThan(0);
    // The CLI sees the same record: the approval is the workspace's, kept in the user's config folder.
    expect(new WorkspaceTrust(ws.dir).status(loadWorkspaceSettings(ws.dir)).trusted).toBe(true);
  });

  it('a remote base URL, or a loopback one that sends a key, is saved but stays held (a person confirms it)', async () => {
    const { call } = open();
    const saved = await call('settings.save', {
      settings: settingsWith({ remote: profile('https://models.example.com/v1'), keyed: profile(server.baseUrl, { apiKeyEnv: 'LOCAL_KEY' }) }),
    });
    expect(saved).toEqual({ problems: [] });
    const status: HostResponse<'trust.status'> = await call('trust.status');
    expect(status.trusted).toBe(false);
    expect(status.parts.filter((p) => !p.trusted).map((p) => p.where)).toEqual(['crewdeck.json models.profiles.remote.baseUrl', 'crewdeck.json models.profiles.keyed']);
  });
});

describe('a base URL the workspace brought stays held whatever the renderer saves', () => {
  const CLONED = () => settingsWith({ cloned: profile(server.baseUrl) });

  async function refused(call: (channel: string, request?: unknown) => Promise<any>, name: string) {
    const test = await call('settings.testConnection', { model: name });
    expect(test.ok).toBe(false);
    expect(test.error).toMatch(/not trusted/);
    const status: HostResponse<'trust.status'> = await call('trust.status');
    expect(status.trusted).toBe(false);
  }

  it('saving the cloned crewdeck.json again (a Save in Settings after any edit) approves nothing', async () => {
    ws.write('crewdeck.json', CLONED());
    const { call } = open();
    expect(await call('settings.save', { settings: { ...CLONED(), prices: {} } })).toEqual({ problems: [] });
    await refused(call, 'cloned');
    await expect(call('runs.start', { path: 'hello.crew.json', inputs: {} })).rejects.toThrow(/not trusted.*models\.profiles\.cloned\.baseUrl/s);
    expect(server.requests).toEqual([]);
  });

  it('removing it and adding it back, in one host or after a restart, approves nothing', async () => {
    ws.write('crewdeck.json', CLONED());
    const first = open();
    expect(await first.call('settings.save', { settings: settingsWith({}) })).toEqual({ problems: [] });
    expect(await first.call('settings.save', { settings: CLONED() })).toEqual({ problems: [] });
    await refused(first.call, 'cloned');

    await first.call('settings.save', { settings: settingsWith({}) });
    await first.host.close();
    hosts.splice(hosts.indexOf(first.host), 1);
    const second = open();
    expect(await second.call('settings.save', { settings: CLONED() })).toEqual({ problems: [] });
    await refused(second.call, 'cloned');
    expect(server.requests).toEqual([]);
  });

  it('copying a crew’s inline base URL into a profile, after deleting the crew, approves nothing', async () => {
    ws.write('cloned.crew.json', {
      kind: 'crew',
      version: 1,
      id: 'cloned',
      name: 'Cloned',
      agents: [{ id: 'a', role: 'R', goal: 'G', llm: profile(server.baseUrl) }],
      tasks: [{ id: 't', description: 'D', expectedOutput: 'E', agentId: 'a' }],
    });
    const { call } = open();
    await call('documents.delete', { path: 'cloned.crew.json' });
    expect(await call('settings.save', { settings: settingsWith({ copied: profile(server.baseUrl) }) })).toEqual({ problems: [] });
    await refused(call, 'copied');
    expect(server.requests).toEqual([]);
  });

  it('a crew edited to drop its base URL, then the URL typed in Settings, approves nothing', async () => {
    const crew = (llm: unknown) => ({
      kind: 'crew',
      version: 1,
      id: 'cloned',
      name: 'Cloned',
      agents: [{ id: 'a', role: 'R', goal: 'G', ...(llm ? { llm } : {}) }],
      tasks: [{ id: 't', description: 'D', expectedOutput: 'E', agentId: 'a' }],
    });
    const { call } = open();
    // Written behind the host's back after it opened (a git pull), then removed through the app.
    ws.write('cloned.crew.json', crew(profile(server.baseUrl.replace('/v1', '/v2'))));
    await call('documents.save', { path: 'cloned.crew.json', document: crew(undefined) });
    expect(await call('settings.save', { settings: settingsWith({ typed: profile(server.baseUrl) }) })).toEqual({ problems: [] });
    await refused(call, 'typed');
  });

  it('the same port spelt another way (localhost, another path, without its key) approves nothing', async () => {
    const port = new URL(server.baseUrl).port;
    ws.write('crewdeck.json', settingsWith({ cloned: profile(`http://127.0.0.1:${port}/v1`, { apiKeyEnv: 'CLONED_KEY' }) }));
    const { call } = open();
    const saved = await call('settings.save', {
      settings: settingsWith({ a: profile(`http://localhost:${port}/v1`), b: profile(`http://[::1]:${port}/other`), c: profile(`http://127.0.0.1:${port}/v1`) }),
    });
    expect(saved).toEqual({ problems: [] });
    for (const name of ['a', 'b', 'c']) await refused(call, name);
    expect(server.requests).toEqual([]);
  });

  it('a broken crewdeck.json that names the port is the workspace’s too (Settings offers to replace it)', async () => {
    const port = new URL(server.baseUrl).port;
    ws.write('crewdeck.json', `{ "version": 1, "models": { "profiles": { "x": { "baseUrl": "http://127.0.0.1:${port}/v1", } } `);
    const { call } = open();
    expect(await call('settings.save', { settings: settingsWith({ typed: profile(server.baseUrl) }) })).toEqual({ problems: [] });
    await refused(call, 'typed');
  });

  it('a port the user entered before stays theirs when the URL changes path; another port does not ride on it', async () => {
    const { call } = open();
    expect((await call('settings.save', { settings: settingsWith({ local: profile(server.baseUrl) }) })).entered).toEqual([server.baseUrl]);
    const moved = server.baseUrl.replace(/\/v1$/, '/v1/');
    expect((await call('settings.save', { settings: settingsWith({ local: profile(moved) }) })).entered).toEqual([moved]);
    expect((await call('settings.testConnection', { model: 'local' })).ok).toBe(true);
  });
});
