import type { InlineModel } from '../../../shared/model/modelRef';

type TriState = '' | 'true' | 'false';

/** A model profile as the form edits it: every field a string, so half-typed values survive. */
export interface ProfileDraft {
  /** Stable while the name is edited. */
  key: string;
  name: string;
  provider: InlineModel['provider'];
  model: string;
  baseUrl: string;
  apiKeyEnv: string;
  temperature: string;
  maxTokens: string;
  timeoutMs: string;
  maxRetries: string;
  nativeTools: TriState;
  stream: TriState;
  /** Scripted provider: path of the script file. */
  script: string;
  /** An inline script object from the file, kept as it is (edited in crewdeck.json). */
  inlineScript?: Record<string, unknown>;
}

export type DraftField = Exclude<keyof ProfileDraft, 'key' | 'inlineScript'>;

let counter = 0;
export const newDraftKey = () => `p${++counter}`;

const str = (v: number | string | undefined) => (v === undefined ? '' : String(v));
const tri = (v: boolean | undefined): TriState => (v === undefined ? '' : v ? 'true' : 'false');

export function toDraft(name: string, m: InlineModel): ProfileDraft {
  return {
    key: newDraftKey(),
    name,
    provider: m.provider,
    model: m.model,
    baseUrl: str(m.baseUrl),
    apiKeyEnv: str(m.apiKeyEnv),
    temperature: str(m.temperature),
    maxTokens: str(m.maxTokens),
    timeoutMs: str(m.timeoutMs),
    maxRetries: str(m.maxRetries),
    nativeTools: tri(m.nativeTools),
    stream: tri(m.stream),
    script: typeof m.script === 'string' ? m.script : '',
    inlineScript: typeof m.script === 'object' ? m.script : undefined,
  };
}

export function blankDraft(name: string): ProfileDraft {
  return toDraft(name, { provider: 'openai', model: 'gpt-4.1-mini' });
}

/** The profile the draft describes, or the fields that cannot be read as their type. */
export function fromDraft(d: ProfileDraft): { model: InlineModel; errors: Partial<Record<DraftField, string>> } {
  const errors: Partial<Record<DraftField, string>> = {};
  const num = (field: DraftField, value: string, integer: boolean) => {
    if (value.trim() === '') return undefined;
    const n = Number(value);
    if (!Number.isFinite(n) || (integer && !Number.isInteger(n))) {
      errors[field] = integer ? 'must be a whole number' : 'must be a number';
      return undefined;
    }
    return n;
  };
  const model: InlineModel = { provider: d.provider, model: d.model.trim() };
  if (!model.model) errors.model = 'required';
  if (!d.name.trim()) errors.name = 'required';
  // Fields the form hides for the scripted provider are not saved for it.
  const openai = d.provider === 'openai';
  if (openai && d.baseUrl.trim()) model.baseUrl = d.baseUrl.trim();
  if (openai && d.apiKeyEnv.trim()) model.apiKeyEnv = d.apiKeyEnv.trim();
  const temperature = num('temperature', d.temperature, false);
  if (temperature !== undefined) model.temperature = temperature;
  const maxTokens = num('maxTokens', d.maxTokens, true);
  if (maxTokens !== undefined) model.maxTokens = maxTokens;
  const timeoutMs = openai ? num('timeoutMs', d.timeoutMs, true) : undefined;
  if (timeoutMs !== undefined) model.timeoutMs = timeoutMs;
  const maxRetries = openai ? num('maxRetries', d.maxRetries, true) : undefined;
  if (maxRetries !== undefined) model.maxRetries = maxRetries;
  if (d.nativeTools) model.nativeTools = d.nativeTools === 'true';
  if (openai && d.stream) model.stream = d.stream === 'true';
  if (d.provider === 'scripted') {
    if (d.script.trim()) model.script = d.script.trim();
    else if (d.inlineScript) model.script = d.inlineScript;
  }
  return { model, errors };
}
