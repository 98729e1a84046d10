import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ModelRef } from '../../../shared/model/modelRef';
import { memberByName } from '../construct/crewBase';
import { textOf, type ObjVal, type Val } from '../construct/values';
import type { MapContext, Setting } from './mapContext';
import type { CrewScope } from './mapValues';
import { shown } from './mapValues';
import { hasProviderPrefix, LLM_CLASS_PROVIDERS, profileForModel, providerOfBaseUrl, type LlmSettings } from './modelProfiles';

/**
 * The model an agent (or manager, planner, flow step) uses, as the name of a model profile the import
 * writes into crewdeck.json: from a model string, an @llm method, an environment variable's value (its
 * default, or the project's .env), or an LLM object. What cannot be read is listed; the agent then uses
 * the workspace's default model, which the list says.
 */
export function modelSetting(ctx: MapContext, scope: CrewScope | undefined, s: Setting | undefined, item: string): ModelRef | undefined {
  if (!s || (s.value.t === 'lit' && s.value.v === null)) return undefined;
  return modelOf(ctx, scope, s.value, s.at, item, s.from === 'yaml', 0);
}

export function modelOf(ctx: MapContext, scope: CrewScope | undefined, v: Val, at: string, item: string, fromYaml: boolean, depth: number): ModelRef | undefined {
  if (depth > 5) return undefined;
  const fail = (why: string) => {
    ctx.note(at, `${item}: ${shown(v)}`, `${why}; the agent uses the workspace's default model until one is chosen`);
    return undefined;
  };
  const name = textOf(v);
  if (name !== undefined) {
    // A YAML `llm:` may name an @llm method of the crew class.
    const member = fromYaml && scope?.owner ? memberByName(ctx.ev, scope.owner, name) : undefined;
    if (member) return modelOf(ctx, scope, member, at, item, false, depth + 1);
    return named(ctx, name.trim(), {}, at, item);
  }
  if (v.t === 'env') {
    if (v.default) return modelOf(ctx, scope, v.default, at, item, false, depth + 1);
    const fromEnvFile = dotEnv(ctx, v.name);
    if (fromEnvFile !== undefined) {
      ctx.note(at, `${item}: os.getenv("${v.name}")`, `the model comes from the environment variable ${v.name}; the project's ${fromEnvFile.file} sets it to "${fromEnvFile.value}", which was used`);
      return named(ctx, fromEnvFile.value, {}, at, item);
    }
    return fail(`the model comes from the environment variable ${v.name}, which the project does not set`);
  }
  if (v.t === 'obj' && (v.cls in LLM_CLASS_PROVIDERS || /LLM$|^Chat/.test(v.cls))) return llmObject(ctx, v, at, item);
  return fail(v.t === 'unknown' ? `the model is not known without running the Python (${v.why})` : `${shown(v)} is not a model this importer can read`);
}

function named(ctx: MapContext, name: string, settings: LlmSettings, at: string, item: string): ModelRef | undefined {
  const read = profileForModel(name, settings);
  if (!read.ok) {
    ctx.note(at, `${item}: ${name}`, `${read.why}; the agent names the model profile "${name}", which the workspace must define (or run with --model)`);
    return name;
  }
  for (const n of read.notes) ctx.note(at, `${item}: ${name}`, n);
  return ctx.profile(read.name, read.model);
}

/** `LLM(model=…, base_url=…, temperature=…)`, `ChatGroq(model_name=…)`, `Ollama(model=…)`… */
function llmObject(ctx: MapContext, obj: ObjVal, at: string, item: string): ModelRef | undefined {
  const kw = obj.args.kw;
  const modelVal = kw.get('model') ?? kw.get('model_name') ?? kw.get('deployment_name') ?? kw.get('azure_deployment') ?? obj.args.pos[0];
  let model = modelVal ? textOf(modelVal) ?? (modelVal.t === 'env' && modelVal.default ? textOf(modelVal.default) : undefined) : undefined;
  if (model === undefined && modelVal?.t === 'env') model = dotEnv(ctx, modelVal.name)?.value;
  if (model === undefined) {
    ctx.note(at, `${item}: ${obj.cls}(...)`, `the model name is ${modelVal ? shown(modelVal) : 'not given'}, not a plain string; the agent uses the workspace's default model until one is chosen`);
    return undefined;
  }
  const settings: LlmSettings = {};
  for (const [key, v] of kw) {
    if (['model', 'model_name', 'deployment_name', 'azure_deployment', 'verbose', 'callbacks'].includes(key)) continue;
    const literal = v.t === 'lit' ? v.v : undefined;
    if (['base_url', 'api_base', 'openai_api_base', 'azure_endpoint', 'endpoint'].includes(key) && textOf(v) !== undefined) settings.baseUrl = textOf(v);
    else if (key === 'temperature' && typeof literal === 'number') settings.temperature = literal;
    else if (['max_tokens', 'max_completion_tokens', 'num_predict'].includes(key) && typeof literal === 'number') settings.maxTokens = literal;
    else if (key === 'stream' && typeof literal === 'boolean') settings.stream = literal;
    else if (['timeout', 'request_timeout'].includes(key) && typeof literal === 'number') settings.timeoutMs = Math.round(literal * 1000);
    else if (['api_key', 'openai_api_key', 'groq_api_key', 'google_api_key'].includes(key)) {
      if (v.t === 'env') settings.apiKeyEnv = v.name;
      else ctx.note(at, `${item}: ${obj.cls}(${key}=…)`, 'an API key written into the code is never imported; put it in an environment variable and name it in the model profile');
    } else ctx.note(at, `${item}: ${obj.cls}(${key}=${shown(v)})`, 'an LLM setting with no Crewdeck equivalent; the profile is made without it');
  }
  const provider = LLM_CLASS_PROVIDERS[obj.cls] ?? (settings.baseUrl ? providerOfBaseUrl(settings.baseUrl) : undefined);
  // LangChain classes name the model without CrewAI's provider prefix; a model string that has one keeps it.
  const full = provider && !hasProviderPrefix(model) ? `${provider}/${model}` : model;
  return named(ctx, full, settings, at, item);
}

/** A variable set in the project's .env (or .env.example): model names only — keys are never read. */
function dotEnv(ctx: MapContext, name: string): { file: string; value: string } | undefined {
  if (/KEY|TOKEN|SECRET|PASSWORD/i.test(name)) return undefined;
  for (const file of ['.env', '.env.example', '.env.sample', 'example.env']) {
    const path = join(ctx.src.root, file);
    if (!existsSync(path)) continue;
    const m = new RegExp(`^\\s*(?:export\\s+)?${name}\\s*=\\s*["']?([^"'\\n#]+?)["']?\\s*(?:#.*)?$`, 'm').exec(readFileSync(path, 'utf8').slice(0, 100_000));
    if (m?.[1]) return { file, value: m[1].trim() };
  }
  return undefined;
}
