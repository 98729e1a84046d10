import type { InlineModel, ModelRef } from '../../shared/model/modelRef';

/**
 * CrewAI names models the LiteLLM way: "gpt-4o", "openai/gpt-4o", "ollama/llama3"… Crewdeck models are
 * an inline OpenAI-compatible model or the name of a workspace model profile. The mapping:
 *   - "openai/<m>" and bare OpenAI model names (gpt-*, o1…, chatgpt-*) → inline openai model <m>;
 *   - a local or hosted OpenAI-compatible server prefix (ollama, lm_studio, hosted_vllm, openrouter…)
 *     → inline openai model with that server's default base URL (and key variable when it needs one);
 *   - anything else ("anthropic/claude…", "my-profile") → kept as a model profile name, which the
 *     workspace must define (reported by the importer when it has a provider prefix).
 */

interface ServerPreset {
  baseUrl: string;
  apiKeyEnv?: string;
}

const SERVER_PRESETS: Record<string, ServerPreset> = {
  ollama: { baseUrl: 'http://localhost:11434/v1' },
  ollama_chat: { baseUrl: 'http://localhost:11434/v1' },
  lm_studio: { baseUrl: 'http://localhost:1234/v1' },
  hosted_vllm: { baseUrl: 'http://localhost:8000/v1' },
  openrouter: { baseUrl: 'https://openrouter.ai/api/v1', apiKeyEnv: 'OPENROUTER_API_KEY' },
};

const OPENAI_MODEL = /^(gpt-|o\d|chatgpt-|text-|davinci|babbage)/i;

/** Extra LLM(...) settings from crew.py that have a Crewdeck equivalent. */
export interface LlmSettings {
  baseUrl?: string;
  apiKeyEnv?: string;
  temperature?: number;
  maxTokens?: number;
  stream?: boolean;
  timeoutMs?: number;
}

export interface ModelMapping {
  ref: ModelRef;
  /** Set when the name was kept as a profile name because no OpenAI-compatible preset fits. */
  keptAsProfile?: string;
}

/** A CrewAI model name (plus LLM(...) settings, if any) as a Crewdeck model reference. */
export function modelFromCrewAi(name: string, settings: LlmSettings = {}): ModelMapping {
  const slash = name.indexOf('/');
  const prefix = slash > 0 ? name.slice(0, slash).toLowerCase() : undefined;
  const rest = slash > 0 ? name.slice(slash + 1) : name;
  const extras = definedOnly(settings);
  if (prefix === 'openai' || (prefix === undefined && OPENAI_MODEL.test(name))) {
    return { ref: { provider: 'openai', model: rest, ...extras } };
  }
  if (prefix !== undefined && SERVER_PRESETS[prefix]) {
    const preset = SERVER_PRESETS[prefix];
    const baseUrl = extras.baseUrl !== undefined ? withV1(extras.baseUrl, prefix) : preset.baseUrl;
    const inline: InlineModel = { provider: 'openai', model: rest, ...extras, baseUrl };
    if (preset.apiKeyEnv && inline.apiKeyEnv === undefined) inline.apiKeyEnv = preset.apiKeyEnv;
    return { ref: inline };
  }
  if (extras.baseUrl !== undefined) return { ref: { provider: 'openai', model: name, ...extras } };
  return { ref: name, keptAsProfile: prefix === undefined ? undefined : prefix };
}

/** Ollama and LM Studio are configured in CrewAI with the server root; their OpenAI API lives under /v1. */
function withV1(url: string, prefix: string): string {
  if (!prefix.startsWith('ollama') && prefix !== 'lm_studio') return url;
  return /\/v1\/?$/.test(url) ? url : `${url.replace(/\/+$/, '')}/v1`;
}

function definedOnly(settings: LlmSettings): Partial<InlineModel> {
  return Object.fromEntries(Object.entries(settings).filter(([, v]) => v !== undefined)) as Partial<InlineModel>;
}

/** How a Crewdeck model reference is written for CrewAI: a model string (plain, or in LLM(...) with settings). */
export type CrewAiModel = { ok: true; model: string; settings: LlmSettings; unsupported: string[] } | { ok: false; why: string };

export function modelToCrewAi(ref: ModelRef): CrewAiModel {
  if (typeof ref === 'string') return { ok: true, model: ref, settings: {}, unsupported: [] };
  if (ref.provider !== 'openai') return { ok: false, why: `the ${ref.provider} provider (model "${ref.model}") exists only in Crewdeck` };
  const settings = definedOnly({
    baseUrl: ref.baseUrl,
    apiKeyEnv: ref.apiKeyEnv,
    temperature: ref.temperature,
    maxTokens: ref.maxTokens,
    stream: ref.stream,
    timeoutMs: ref.timeoutMs,
  }) as LlmSettings;
  const unsupported: string[] = [];
  if (ref.nativeTools !== undefined) unsupported.push(`nativeTools: ${ref.nativeTools}`);
  if (ref.maxRetries !== undefined) unsupported.push(`maxRetries: ${ref.maxRetries}`);
  return { ok: true, model: `openai/${ref.model}`, settings, unsupported };
}

/** Whether the settings need an LLM(...) object rather than a plain model string. */
export function needsLlmObject(settings: LlmSettings): boolean {
  return Object.values(settings).some((v) => v !== undefined);
}
