import { PROVIDER_PRESETS, presetForBaseUrl, type ProviderPreset } from '../../../shared/model/providerPresets';
import type { ProfileDraft } from './profileDraft';

/**
 * A draft with a preset's connection settings: OpenAI-compatible provider, base URL, API key
 * variable and tool calling. The model is replaced only when it is empty or another preset's
 * example (a model the user typed is kept); other settings (temperature, max tokens…) stay.
 */
export function applyPreset(draft: ProfileDraft, preset: ProviderPreset): ProfileDraft {
  const examples = new Set(PROVIDER_PRESETS.map((p) => p.exampleModel));
  const keepModel = draft.model.trim() !== '' && !examples.has(draft.model.trim());
  return {
    ...draft,
    provider: 'openai',
    // A URL of the user's own is kept when they pick "any OpenAI-compatible URL".
    baseUrl: preset.id === 'custom' && draft.baseUrl.trim() && presetForBaseUrl(draft.baseUrl).id === 'custom' ? draft.baseUrl : preset.baseUrl,
    apiKeyEnv: preset.apiKeyEnv,
    nativeTools: preset.nativeTools === undefined ? '' : preset.nativeTools ? 'true' : 'false',
    model: keepModel || !preset.exampleModel ? draft.model : preset.exampleModel,
  };
}
