import { resolve, sep } from 'node:path';
import OpenAI from 'openai';
import type { ModelRef } from '../../shared/model/modelRef';
import type { WorkspaceSettings } from '../../shared/model/workspace';
import { errorMessage } from '../errors';
import { ModelResolver } from '../llm/resolveModel';
import { keyHeldPart } from '../trust/heldParts';
import { modelHostHeldPart } from '../trust/networkParts';
import { userModelServers } from '../trust/userModelServers';
import { WorkspaceTrust } from '../trust/workspaceTrust';

export interface ConnectionTest {
  ok: boolean;
  latencyMs: number;
  models: string[];
  /** `models`: GET /models answered; `chat`: it was missing (404) and a one-token chat request answered; `script`: a scripted model's script loaded. */
  method?: 'models' | 'chat' | 'script';
  error?: string;
}

/**
 * "Test connection" in settings: for an OpenAI-compatible server, list its models (`GET /models`), or,
 * when the server has no such route (404), send a one-token chat request to the profile's model; for a
 * scripted model, load and check its script. Never throws; the key never appears in the result.
 */
export async function testConnection(
  ref: ModelRef,
  options: {
    settings?: WorkspaceSettings;
    env: NodeJS.ProcessEnv;
    workspace: string;
    /** Variables an inline model may read its key from (those the workspace's profiles name). */
    keyNames: readonly string[];
    timeoutMs?: number;
  },
): Promise<ConnectionTest> {
  const started = Date.now();
  const elapsed = () => Date.now() - started;
  const trust = new WorkspaceTrust(options.workspace);
  const resolver = new ModelResolver({ settings: options.settings, env: options.env, baseDir: options.workspace, trust });
  try {
    const model = resolver.settingsFor(ref);
    // The renderer is untrusted: an inline model must not send an arbitrary variable to an arbitrary
    // server, nor read a script from outside the workspace.
    if (typeof ref !== 'string' && ref.apiKeyEnv && !options.keyNames.includes(ref.apiKeyEnv)) {
      return { ok: false, latencyMs: elapsed(), models: [], error: `${ref.apiKeyEnv} is not named by a saved profile: save the profile, then test it` };
    }
    if (typeof ref !== 'string' && typeof ref.script === 'string' && !insideWorkspace(options.workspace, ref.script)) {
      return { ok: false, latencyMs: elapsed(), models: [], error: 'the script must be a file inside the workspace' };
    }
    if (model.provider === 'scripted') {
      resolver.resolve(ref);
      return { ok: true, latencyMs: elapsed(), models: [model.model], method: 'script' };
    }
    // As in runs: OPENAI_API_KEY never goes to a base URL the model names itself.
    const apiKey = (model.apiKeyEnv ? options.env[model.apiKeyEnv] : model.baseUrl ? undefined : options.env.OPENAI_API_KEY) || undefined;
    const baseURL = model.baseUrl ?? (options.env.OPENAI_BASE_URL || undefined);
    if (!apiKey && !baseURL) {
      return { ok: false, latencyMs: elapsed(), models: [], error: `no API key: set ${model.apiKeyEnv ?? 'OPENAI_API_KEY'}` };
    }
    if (model.apiKeyEnv && !apiKey) {
      return { ok: false, latencyMs: elapsed(), models: [], error: `the environment variable ${model.apiKeyEnv} is not set` };
    }
    // The renderer chose this server (inline, or a profile it just saved): like a run, a key goes to a
    // baseUrl of the model's own only when the user trusted exactly that pair, and a keyless baseUrl is
    // asked only when it is the provider's, one of the user's own model servers, or trusted (the
    // renderer must not make this process reach a local, private or metadata address; WorkspaceUntrusted
    // says how to trust it).
    if (model.baseUrl) {
      const where = typeof ref === 'string' ? `crewdeck.json models.profiles.${ref}` : 'the tested model';
      const held = apiKey && model.apiKeyEnv
        ? keyHeldPart({ apiKeyEnv: model.apiKeyEnv, baseUrl: model.baseUrl }, where)
        : modelHostHeldPart({ baseUrl: model.baseUrl }, `${where}.baseUrl`, userModelServers(process.env, options.env.OPENAI_BASE_URL));
      if (held) trust.require(held);
    }
    const client = new OpenAI({ apiKey: apiKey ?? 'no-key', baseURL, maxRetries: 0, timeout: options.timeoutMs ?? 10_000 });
    const models: string[] = [];
    try {
      for await (const m of client.models.list()) {
        models.push(m.id);
        if (models.length >= 500) break;
      }
    } catch (error) {
      if (!(error instanceof OpenAI.NotFoundError)) throw error;
      // Servers without GET /models (some proxies and local servers) still chat: ask for one token.
      await client.chat.completions.create({ model: model.model, messages: [{ role: 'user', content: 'ping' }], max_tokens: 1 });
      return { ok: true, latencyMs: elapsed(), models: [], method: 'chat' };
    }
    models.sort();
    const listed = models.length === 0 || models.includes(model.model);
    return {
      ok: true,
      latencyMs: elapsed(),
      models,
      method: 'models',
      ...(listed ? {} : { error: `connected, but the server does not list the model "${model.model}"` }),
    };
  } catch (error) {
    return { ok: false, latencyMs: elapsed(), models: [], error: describe(error) };
  }
}

function insideWorkspace(workspace: string, path: string): boolean {
  const full = resolve(workspace, path);
  return full.startsWith(resolve(workspace) + sep);
}

function describe(error: unknown): string {
  if (error instanceof OpenAI.APIError && error.status) return `the server answered ${error.status}: ${error.message}`;
  if (error instanceof OpenAI.APIConnectionTimeoutError) return 'the server did not answer in time';
  if (error instanceof OpenAI.APIConnectionError) return `cannot connect: ${errorMessage(error.cause ?? error)}`;
  return errorMessage(error);
}
