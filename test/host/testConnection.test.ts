import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testConnection } from '../../runtime/host/testConnection';
import { startScriptedServer, type ScriptedServer } from '../support/scriptedServer';

let workspace: string;
let server: ScriptedServer | undefined;

beforeEach(() => {
  workspace = mkdtempSync(join(tmpdir(), 'crewdeck-testconn-'));
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  rmSync(workspace, { recursive: true, force: true });
});

const test = (baseUrl: string, model = 'scripted-model') => testConnection({ provider: 'openai', model, baseUrl }, { env: {}, workspace, keyNames: [] });

describe('Test connection', () => {
  it('lists the models of a server with GET /models, and says so', async () => {
    server = await startScriptedServer({ models: ['scripted-model', 'other'] });
    const result = await test(server.baseUrl);
    expect(result).toMatchObject({ ok: true, method: 'models', models: ['other', 'scripted-model'] });
    expect(result.error).toBeUndefined();
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /v1/models']);
  });

  it('falls back to a one-token chat request when the server has no /models (404), and says which it used', async () => {
    server = await startScriptedServer({ models: false });
    server.enqueue({ content: 'p' });
    const result = await test(server.baseUrl);
    expect(result).toMatchObject({ ok: true, method: 'chat', models: [] });
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /v1/models', 'POST /v1/chat/completions']);
    const chat = server.requests[1]!.body;
    expect(chat.model).toBe('scripted-model');
    expect(chat.max_tokens).toBe(1);
  });

  it('reports the chat request failing when neither works', async () => {
    server = await startScriptedServer({ models: false });
    // No reply queued: the scripted server answers 500 "script exhausted".
    const result = await test(server.baseUrl);
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(/the server answered 500/);
  });
});
