import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkspaceSettings } from '../../shared/model/workspace';
import { OpenAIChatModel } from '../../runtime/llm/openaiProvider';
import { ModelConfigInvalid, ModelProfileNotFound, ModelResolver } from '../../runtime/llm/resolveModel';
import { ScriptInvalid } from '../../runtime/llm/script';
import { ScriptedChatModel } from '../../runtime/llm/scriptedProvider';
import { startScriptedServer, type ScriptedServer } from '../support/scriptedServer';

let dir: string;
let server: ScriptedServer;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'crewdeck-resolve-'));
  mkdirSync(join(dir, 'scripts'));
  writeFileSync(join(dir, 'scripts', 'demo.json'), JSON.stringify({ sequence: ['from file 1', 'from file 2'], nativeTools: false }));
  writeFileSync(join(dir, 'scripts', 'broken.json'), '{ "sequence": [ ');
  writeFileSync(join(dir, 'scripts', 'invalid.json'), JSON.stringify({ sequence: [{ delayMs: 'soon' }] }));
  server = await startScriptedServer();
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await server.close();
});

const settings: WorkspaceSettings = {
  version: 1,
  models: {
    default: 'demo',
    profiles: {
      demo: { provider: 'scripted', model: 'demo', script: 'scripts/demo.json' },
      inline: { provider: 'scripted', model: 'inline', script: { default: 'inline reply' } },
      local: { provider: 'openai', model: 'llama3', baseUrl: 'http://127.0.0.1:1/v1', nativeTools: false },
    },
  },
};
const ask = { messages: [{ role: 'user' as const, content: 'hi' }] };

describe('ModelResolver', () => {
  it('uses the default profile for a missing reference, and a named profile for a string', async () => {
    const resolver = new ModelResolver({ settings, baseDir: dir, env: {} });
    const model = resolver.resolve(undefined);
    expect(model).toBeInstanceOf(ScriptedChatModel);
    expect(resolver.describe(undefined)).toBe('scripted:demo');
    expect(resolver.describe('local')).toBe('openai:llama3');
    expect(resolver.resolve('local')).toBeInstanceOf(OpenAIChatModel);
    expect((await resolver.resolve('inline').chat(ask)).content).toBe('inline reply');
  });

  it('reads a script path relative to baseDir and takes nativeTools from it', async () => {
    const resolver = new ModelResolver({ settings, baseDir: dir, env: {} });
    const model = resolver.resolve('demo');
    expect(model.supportsNativeTools).toBe(false);
    expect((await model.chat(ask)).content).toBe('from file 1');
  });

  it('shares one instance (and one script state) between equal references', async () => {
    const resolver = new ModelResolver({ settings, baseDir: dir, env: {} });
    const inline = { provider: 'scripted' as const, model: 'demo', script: 'scripts/demo.json' };
    expect(resolver.resolve('demo')).toBe(resolver.resolve(undefined));
    expect(resolver.resolve(inline)).toBe(resolver.resolve('demo'));
    expect((await resolver.resolve('demo').chat(ask)).content).toBe('from file 1');
    expect((await resolver.resolve(undefined).chat(ask)).content).toBe('from file 2');
    expect(resolver.resolve({ ...inline, model: 'other' })).not.toBe(resolver.resolve('demo'));
  });

  it('lets a reference override nativeTools', () => {
    const resolver = new ModelResolver({ settings, baseDir: dir, env: {} });
    expect(resolver.resolve({ provider: 'scripted', model: 'demo', script: 'scripts/demo.json', nativeTools: true }).supportsNativeTools).toBe(true);
    expect(resolver.resolve('local').supportsNativeTools).toBe(false);
  });

  it('falls back to openai with OPENAI_MODEL, else gpt-4.1-mini', () => {
    expect(new ModelResolver({ baseDir: dir, env: { OPENAI_MODEL: 'gpt-5-nano' } }).describe(undefined)).toBe('openai:gpt-5-nano');
    expect(new ModelResolver({ baseDir: dir, env: {} }).describe(undefined)).toBe('openai:gpt-4.1-mini');
    const noDefault: WorkspaceSettings = { version: 1, models: { profiles: settings.models.profiles } };
    expect(new ModelResolver({ settings: noDefault, baseDir: dir, env: {} }).describe(undefined)).toBe('openai:gpt-4.1-mini');
  });

  it('lets forceProfile win over every reference', () => {
    const resolver = new ModelResolver({ settings, baseDir: dir, env: {}, forceProfile: 'inline' });
    expect(resolver.describe({ provider: 'openai', model: 'gpt-4o' })).toBe('scripted:inline');
    expect(resolver.describe('local')).toBe('scripted:inline');
    expect(resolver.describe(undefined)).toBe('scripted:inline');
  });

  it('names the known profiles when a profile is unknown', () => {
    const resolver = new ModelResolver({ settings, baseDir: dir, env: {} });
    const error = (() => {
      try {
        resolver.resolve('fast');
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(ModelProfileNotFound);
    expect((error as Error).message).toBe('Unknown model profile "fast"; known profiles: demo, inline, local');
    expect(() => new ModelResolver({ baseDir: dir, forceProfile: 'x', env: {} }).describe(undefined)).toThrow(/no model profiles/);
  });

  it('reports a missing, unparseable or invalid script file by name', () => {
    const resolver = new ModelResolver({ baseDir: dir, env: {} });
    const load = (script: string) => () => resolver.resolve({ provider: 'scripted', model: 'm', script });
    expect(load('scripts/missing.json')).toThrow(ScriptInvalid);
    expect(load('scripts/missing.json')).toThrow(/missing\.json: \(file\): cannot read the script: file not found/);
    expect(load('scripts/broken.json')).toThrow(/broken\.json: \(file\): not valid JSON/);
    expect(load('scripts/invalid.json')).toThrow(/invalid\.json: sequence\.0\.delayMs: /);
    expect(() => resolver.resolve({ provider: 'scripted', model: 'm' })).toThrow(ModelConfigInvalid);
  });

  it('reads the API key from apiKeyEnv, and names the variable when it is missing', async () => {
    const ref = { provider: 'openai' as const, model: 'm', baseUrl: server.baseUrl, apiKeyEnv: 'MY_KEY', stream: false };
    expect(() => new ModelResolver({ baseDir: dir, env: {} }).resolve(ref)).toThrow(/MY_KEY/);
    server.enqueue({ content: 'keyed' });
    const model = new ModelResolver({ baseDir: dir, env: { MY_KEY: 'secret-1' } }).resolve(ref);
    expect((await model.chat(ask)).content).toBe('keyed');
    expect(server.requests.at(-1)?.headers.authorization).toBe('Bearer secret-1');
  });

  it('uses its own environment for the OpenAI fallback', async () => {
    // No key and no local server: refused when the model is resolved, before any run starts.
    const keyless = new ModelResolver({ baseDir: dir, env: {} });
    expect(() => keyless.resolve(undefined)).toThrow(ModelConfigInvalid);
    expect(() => keyless.resolve(undefined)).toThrow(/needs an API key: set OPENAI_API_KEY/);
    expect(keyless.describe(undefined)).toBe('openai:gpt-4.1-mini');
    server.enqueue({ content: 'env model' });
    const env = { OPENAI_API_KEY: 'k2', OPENAI_BASE_URL: server.baseUrl, OPENAI_MODEL: 'env-model' };
    const model = new ModelResolver({ baseDir: dir, env }).resolve(undefined);
    const reply = await model.chat(ask);
    expect(reply.content).toBe('env model');
    expect(server.requests.at(-1)?.body.model).toBe('env-model');
  });
});
