import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testConnection } from '../../runtime/host/testConnection';
import { keyHeldPart } from '../../runtime/trust/heldParts';
import { modelHostHeldPart } from '../../runtime/trust/networkParts';
import { userModelServers } from '../../runtime/trust/userModelServers';
import { TrustStore } from '../../runtime/trust/trustStore';
import { startScriptedServer, type ScriptedServer } from '../support/scriptedServer';

/**
 * Review attack (issue 13): `settings.testConnection` comes from the renderer, which is untrusted. It
 * refused a key variable no saved profile names, but any named one (OPENAI_API_KEY, named by the
 * ordinary `openai` profile) went to whatever baseUrl the request gave — and a profile the renderer had
 * just saved with `settings.save` was tested without trust too. Runs hold that pair until the user
 * trusts it; Test connection now asks the same gate.
 */
const KEY = 'sk-canary-testconn-0123456789';
let workspace: string;
let server: ScriptedServer | undefined;

beforeEach(() => {
  workspace = mkdtempSync(join(tmpdir(), 'crewdeck-testconn-trust-'));
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  rmSync(workspace, { recursive: true, force: true });
});

const env = { OPENAI_API_KEY: KEY };
const sawKey = () => server!.requests.some((r) => JSON.stringify(r.headers).includes(KEY));

describe('Test connection sends a key to a baseUrl of its own only when trusted', () => {
  it('an inline model naming OPENAI_API_KEY and an untrusted baseUrl is refused, and the server sees no key', async () => {
    server = await startScriptedServer({ models: ['m'] });
    const result = await testConnection({ provider: 'openai', model: 'm', baseUrl: server.baseUrl, apiKeyEnv: 'OPENAI_API_KEY' }, { env, workspace, keyNames: ['OPENAI_API_KEY'] });
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(/crewdeck trust/);
    expect(result.error).not.toContain(KEY);
    expect(sawKey()).toBe(false);
    expect(server.requests).toEqual([]);
  });

  it('a saved but untrusted profile with its own baseUrl is refused too', async () => {
    server = await startScriptedServer({ models: ['m'] });
    const settings = { version: 1 as const, models: { profiles: { evil: { provider: 'openai' as const, model: 'm', baseUrl: server.baseUrl, apiKeyEnv: 'OPENAI_API_KEY' } } } };
    const result = await testConnection('evil', { settings: settings as never, env, workspace, keyNames: ['OPENAI_API_KEY'] });
    expect(result.ok).toBe(false);
    expect(sawKey()).toBe(false);
  });

  it('once the pair is trusted, the test connects and sends the key', async () => {
    server = await startScriptedServer({ models: ['m'] });
    new TrustStore().record(workspace, [keyHeldPart({ apiKeyEnv: 'OPENAI_API_KEY', baseUrl: server.baseUrl }, 'crewdeck.json models.profiles.local')!]);
    const result = await testConnection({ provider: 'openai', model: 'm', baseUrl: server.baseUrl, apiKeyEnv: 'OPENAI_API_KEY' }, { env, workspace, keyNames: ['OPENAI_API_KEY'] });
    expect(result).toMatchObject({ ok: true, models: ['m'] });
    expect(sawKey()).toBe(true);
  });
});

/**
 * Review finding N6: with no key, the renderer could still make this process reach any address (the
 * cloud metadata service, a router, a loopback admin port) by testing an inline model with a `baseUrl` of
 * its own. A keyless baseUrl now goes through the same gate as a run's model (modelHostHeldPart): the
 * provider's host, one of the user's model servers, or trusted.
 */
describe('Test connection reaches a keyless baseUrl of its own only when a run could', () => {
  let configDir: string;
  const savedConfigDir = process.env.CREWDECK_CONFIG_DIR;
  beforeEach(() => {
    // A user whose settings name no model servers (the suite's default user has loopback ones).
    configDir = mkdtempSync(join(tmpdir(), 'crewdeck-testconn-config-'));
    process.env.CREWDECK_CONFIG_DIR = configDir;
  });
  afterEach(() => {
    process.env.CREWDECK_CONFIG_DIR = savedConfigDir;
    rmSync(configDir, { recursive: true, force: true });
  });

  it('an inline keyless model on a loopback baseUrl is refused with the WorkspaceUntrusted message; the server sees nothing', async () => {
    server = await startScriptedServer({ models: ['m'] });
    const result = await testConnection({ provider: 'openai', model: 'm', baseUrl: server.baseUrl }, { env: {}, workspace, keyNames: [] });
    expect(result.ok).toBe(false);
    expect(result.error).toContain(`the tested model.baseUrl sends prompts to ${new URL(server.baseUrl).host}`);
    expect(result.error).toMatch(/crewdeck trust/);
    expect(server.requests).toEqual([]);
  });

  it('a saved keyless profile on a host of its own is refused too, named by its profile', async () => {
    server = await startScriptedServer({ models: ['m'] });
    const settings = { version: 1 as const, models: { profiles: { box: { provider: 'openai' as const, model: 'm', baseUrl: server.baseUrl } } } };
    const result = await testConnection('box', { settings: settings as never, env: {}, workspace, keyNames: [] });
    expect(result.ok).toBe(false);
    expect(result.error).toContain('crewdeck.json models.profiles.box.baseUrl');
    expect(server.requests).toEqual([]);
  });

  it('one of the user\'s model servers, OPENAI_BASE_URL, or a trusted baseUrl is reached', async () => {
    server = await startScriptedServer({ models: ['m'] });
    const host = new URL(server.baseUrl).host;
    const model = { provider: 'openai' as const, model: 'm', baseUrl: server.baseUrl };
    writeFileSync(join(configDir, 'settings.json'), JSON.stringify({ modelServers: [host] }));
    expect(await testConnection(model, { env: {}, workspace, keyNames: [] })).toMatchObject({ ok: true, models: ['m'] });

    writeFileSync(join(configDir, 'settings.json'), JSON.stringify({ modelServers: [] }));
    expect(await testConnection(model, { env: { OPENAI_BASE_URL: server.baseUrl }, workspace, keyNames: [] })).toMatchObject({ ok: true });

    expect((await testConnection(model, { env: {}, workspace, keyNames: [] })).ok).toBe(false);
    new TrustStore().record(workspace, [modelHostHeldPart(model, 'the tested model.baseUrl', userModelServers())!]);
    expect(await testConnection(model, { env: {}, workspace, keyNames: [] })).toMatchObject({ ok: true, models: ['m'] });
  });
});
