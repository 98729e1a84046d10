import type { InlineModel, ModelRef } from '../../../shared/model/modelRef';
import { presetForBaseUrl } from '../../../shared/model/providerPresets';
import { profileForModel, type LlmSettings } from '../crews/modelProfiles';
import { modelToCrewAi, type CrewAiModel } from '../modelNames';

/** Preset → the LiteLLM prefix CrewAI names its models with. */
const PREFIX_OF_PRESET: Record<string, string> = {
  openai: 'openai', ollama: 'ollama', lmstudio: 'lm_studio', vllm: 'hosted_vllm', openrouter: 'openrouter', groq: 'groq', anthropic: 'anthropic',
  gemini: 'gemini', azure: 'azure', nvidia: 'nvidia_nim', mistral: 'mistral', deepseek: 'deepseek', xai: 'xai', together: 'together_ai',
  fireworks: 'fireworks_ai', cerebras: 'cerebras', huggingface: 'huggingface',
};

/**
 * How a model reference is written for CrewAI. A profile name resolves through the workspace's
 * profiles: a profile the import made (named by its model string, settings in brackets) is written
 * back as that model string with those settings, so importing the export gives the same profile; any
 * other profile as `<provider>/<model>` from its endpoint. Inline models as before (modelNames.ts).
 */
export function modelForCrewAi(ref: ModelRef, profiles: Record<string, InlineModel> | undefined): CrewAiModel {
  if (typeof ref !== 'string') return modelToCrewAi(ref);
  const profile = profiles?.[ref];
  if (!profile) return modelToCrewAi(ref);
  const base = ref.replace(/ \([^()]*\)$/, '');
  const settings = settingsOf(profile);
  const again = profileForModel(base, settings);
  if (again.ok && again.name === ref && same(again.model, profile)) return { ok: true, model: base, settings, unsupported: [] };
  if (profile.provider !== 'openai') return { ok: false, why: `the ${profile.provider} provider (profile "${ref}") exists only in Crewdeck` };
  const preset = presetForBaseUrl(profile.baseUrl);
  const prefix = PREFIX_OF_PRESET[preset.id];
  const model = prefix && !profile.model.startsWith(`${prefix}/`) ? `${prefix}/${profile.model}` : profile.model;
  const all: LlmSettings = { ...settings };
  if (profile.baseUrl !== undefined && preset.id === 'custom') all.baseUrl = profile.baseUrl;
  if (profile.apiKeyEnv !== undefined && profile.apiKeyEnv !== preset.apiKeyEnv) all.apiKeyEnv = profile.apiKeyEnv;
  return { ok: true, model, settings: all, unsupported: profile.nativeTools !== undefined && profile.nativeTools !== preset.nativeTools ? [`nativeTools: ${profile.nativeTools}`] : [] };
}

/** The settings a profile holds beyond its provider's defaults (what an LLM(...) object would say). */
function settingsOf(profile: InlineModel): LlmSettings {
  const out: LlmSettings = {};
  const preset = presetForBaseUrl(profile.baseUrl);
  if (profile.baseUrl !== undefined && (preset.id === 'custom' || preset.baseUrl.replace(/\/+$/, '') !== profile.baseUrl.replace(/\/+$/, ''))) out.baseUrl = profile.baseUrl;
  if (profile.apiKeyEnv !== undefined && profile.apiKeyEnv !== (preset.id === 'openai' ? 'OPENAI_API_KEY' : preset.apiKeyEnv)) out.apiKeyEnv = profile.apiKeyEnv;
  if (profile.temperature !== undefined) out.temperature = profile.temperature;
  if (profile.maxTokens !== undefined) out.maxTokens = profile.maxTokens;
  if (profile.stream !== undefined) out.stream = profile.stream;
  if (profile.timeoutMs !== undefined) out.timeoutMs = profile.timeoutMs;
  return out;
}

function same(a: InlineModel, b: InlineModel): boolean {
  const norm = (m: InlineModel) => JSON.stringify(Object.fromEntries(Object.entries(m).filter(([, v]) => v !== undefined).sort(([x], [y]) => (x < y ? -1 : 1))));
  return norm(a) === norm(b);
}
