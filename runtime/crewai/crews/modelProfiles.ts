import type { InlineModel } from '../../../shared/model/modelRef';
import { PROVIDER_PRESETS, type ProviderPreset } from '../../../shared/model/providerPresets';

/**
 * A model a CrewAI project names — a LiteLLM-style string (`gpt-4o`, `ollama/llama3.1`, `groq/llama3-8b-8192`)
 * or an LLM object (CrewAI's `LLM(...)`, LangChain's `ChatGroq(...)`, `Ollama(...)`…) — as a Crewdeck model
 * profile on that provider's OpenAI-compatible endpoint (shared/model/providerPresets.ts). A provider with
 * no such endpoint is unmapped, with the reason, never quietly replaced by the default model.
 */

/** LiteLLM provider prefixes → the preset that serves them. */
const PREFIXES: Record<string, ProviderPreset['id']> = {
  openai: 'openai',
  azure: 'azure',
  azure_ai: 'azure',
  anthropic: 'anthropic',
  gemini: 'gemini',
  google: 'gemini',
  groq: 'groq',
  ollama: 'ollama',
  ollama_chat: 'ollama',
  lm_studio: 'lmstudio',
  hosted_vllm: 'vllm',
  vllm: 'vllm',
  openrouter: 'openrouter',
  mistral: 'mistral',
  deepseek: 'deepseek',
  xai: 'xai',
  together_ai: 'together',
  together: 'together',
  fireworks_ai: 'fireworks',
  cerebras: 'cerebras',
  huggingface: 'huggingface',
  nvidia_nim: 'nvidia',
  nvidia: 'nvidia',
};

/** Model classes (CrewAI, LangChain and others) → the provider their `model=` belongs to. */
export const LLM_CLASS_PROVIDERS: Record<string, string | undefined> = {
  LLM: undefined,
  BaseLLM: undefined,
  ChatOpenAI: 'openai',
  OpenAI: 'openai',
  AzureChatOpenAI: 'azure',
  AzureOpenAI: 'azure',
  ChatAnthropic: 'anthropic',
  ChatOllama: 'ollama',
  Ollama: 'ollama',
  OllamaLLM: 'ollama',
  ChatGroq: 'groq',
  ChatGoogleGenerativeAI: 'gemini',
  GoogleGenerativeAI: 'gemini',
  ChatMistralAI: 'mistral',
  ChatNVIDIA: 'nvidia',
  ChatDeepSeek: 'deepseek',
  ChatTogether: 'together',
  ChatFireworks: 'fireworks',
  ChatCerebras: 'cerebras',
  ChatXAI: 'xai',
  ChatHuggingFace: 'huggingface',
  HuggingFaceEndpoint: 'huggingface',
  ChatLiteLLM: undefined,
};

/** Settings of an LLM object that a profile holds. */
export interface LlmSettings {
  baseUrl?: string;
  apiKeyEnv?: string;
  temperature?: number;
  maxTokens?: number;
  stream?: boolean;
  timeoutMs?: number;
}

/** `name`: the profile's name — the model string, with the settings that set it apart in brackets. */
export type ProfileReading = { ok: true; model: InlineModel; name: string; notes: string[] } | { ok: false; why: string };

/** A model string (with the settings of the object that named it) as a profile on its provider's endpoint. */
export function profileForModel(name: string, settings: LlmSettings = {}): ProfileReading {
  const slash = name.indexOf('/');
  const prefix = slash > 0 ? name.slice(0, slash).toLowerCase() : undefined;
  const rest = slash > 0 ? name.slice(slash + 1) : name;
  const notes: string[] = [];
  let preset: ProviderPreset | undefined;
  let model = rest;
  if (prefix !== undefined && PREFIXES[prefix]) preset = presetById(PREFIXES[prefix]!);
  else if (prefix === undefined) preset = bareModelPreset(name);
  else if (settings.baseUrl === undefined) {
    return { ok: false, why: `the provider "${prefix}" has no OpenAI-compatible endpoint among Crewdeck's presets; define a model profile for it in crewdeck.json or pick another model` };
  }
  if (!preset && settings.baseUrl === undefined) {
    return { ok: false, why: `"${name}" names no provider (CrewAI would ask LiteLLM to guess); give it as "<provider>/${name}" or define a model profile named "${name}" in crewdeck.json` };
  }
  if (!preset) model = name;
  const baseUrl = settings.baseUrl !== undefined ? withV1(settings.baseUrl, preset?.id) : preset?.baseUrl || undefined;
  if (preset?.id === 'azure' && settings.baseUrl === undefined) notes.push('the Azure resource is not named in the project: set the profile\'s base URL to your resource (https://<resource>.openai.azure.com/openai/v1)');
  // OpenAI's own key variable is the openai provider's default: a profile names it only when the project does.
  const apiKeyEnv = settings.apiKeyEnv ?? (preset && preset.id !== 'openai' ? preset.apiKeyEnv || undefined : undefined);
  const out: InlineModel = { provider: 'openai', model };
  if (baseUrl) out.baseUrl = baseUrl;
  if (apiKeyEnv) out.apiKeyEnv = apiKeyEnv;
  if (preset?.nativeTools !== undefined && preset.id !== 'openai') out.nativeTools = preset.nativeTools;
  for (const key of ['temperature', 'maxTokens', 'stream', 'timeoutMs'] as const) if (settings[key] !== undefined) (out as Record<string, unknown>)[key] = settings[key];
  const apart = [
    ...(settings.baseUrl !== undefined && baseUrl !== undefined ? [`at ${baseUrl}`] : []),
    ...(settings.temperature !== undefined ? [`temperature ${settings.temperature}`] : []),
    ...(settings.maxTokens !== undefined ? [`max tokens ${settings.maxTokens}`] : []),
    ...(settings.timeoutMs !== undefined ? [`timeout ${settings.timeoutMs / 1000} s`] : []),
    ...(settings.stream !== undefined ? [settings.stream ? 'streamed' : 'not streamed'] : []),
  ];
  return { ok: true, model: out, name: apart.length > 0 ? `${name} (${apart.join(', ')})` : name, notes };
}

function presetById(id: ProviderPreset['id']): ProviderPreset | undefined {
  return PROVIDER_PRESETS.find((p) => p.id === id);
}

/** A model name without a provider: OpenAI's, Anthropic's and Google's are recognisable by name. */
function bareModelPreset(name: string): ProviderPreset | undefined {
  if (/^(gpt-|o\d|chatgpt-|text-|davinci|babbage)/i.test(name)) return presetById('openai');
  if (/^claude-/i.test(name)) return presetById('anthropic');
  if (/^gemini-/i.test(name)) return presetById('gemini');
  return undefined;
}

/** Ollama and LM Studio are configured with the server root; their OpenAI API lives under /v1. */
function withV1(url: string, preset: string | undefined): string {
  if (preset !== 'ollama' && preset !== 'lmstudio' && !/:(11434|1234)\b/.test(url)) return url;
  return /\/v1\/?$/.test(url) ? url : `${url.replace(/\/+$/, '')}/v1`;
}

/** Whether a model string already names its provider (`openai/gpt-4o`, `ollama/llama3`). */
export function hasProviderPrefix(model: string): boolean {
  const slash = model.indexOf('/');
  return slash > 0 && PREFIXES[model.slice(0, slash).toLowerCase()] !== undefined;
}

/** A base URL that says which server it is (a local Ollama on :11434), for LLM objects that name only a model. */
export function providerOfBaseUrl(url: string): string | undefined {
  if (/:11434\b/.test(url)) return 'ollama';
  if (/:1234\b/.test(url)) return 'lm_studio';
  const known = PROVIDER_PRESETS.find((p) => p.baseUrl && url.replace(/\/+$/, '').startsWith(p.baseUrl.replace(/\/v1.*$/, '')));
  return known ? Object.entries(PREFIXES).find(([, id]) => id === known.id)?.[0] : undefined;
}
