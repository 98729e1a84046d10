import type { ReactNode } from 'react';
import { PROVIDER_PRESETS, presetForBaseUrl } from '../../../shared/model/providerPresets';
import { applyPreset } from './applyPreset';
import type { ConnectionCheck } from '../../stores/settingsStore';
import { ConnectionResult } from './ConnectionResult';
import { FieldProblem } from './FieldProblem';
import type { DraftField, ProfileDraft } from './profileDraft';

interface ProfileEditorProps {
  draft: ProfileDraft;
  isDefault: boolean;
  problems: Partial<Record<DraftField | 'profile', string>>;
  check?: ConnectionCheck;
  onChange(draft: ProfileDraft): void;
  onMakeDefault(): void;
  onDelete(): void;
  onTest(): void;
}

/** Every setting of one model profile, with the problems the host or the form found. */
export function ProfileEditor({ draft, isDefault, problems, check, onChange, onMakeDefault, onDelete, onTest }: ProfileEditorProps) {
  const set = <K extends keyof ProfileDraft>(key: K, value: ProfileDraft[K]) => onChange({ ...draft, [key]: value });
  const field = (key: DraftField, label: string, input: ReactNode, help?: string) => (
    <div className="settings-field" data-invalid={problems[key] ? true : undefined}>
      <label htmlFor={`profile-${key}`}>{label}</label>
      {input}
      {help && <div className="settings-help">{help}</div>}
      <FieldProblem message={problems[key]} />
    </div>
  );
  const text = (key: DraftField, placeholder?: string, mono = true) => (
    <input
      id={`profile-${key}`}
      data-testid={`profile-${key}`}
      className={mono ? 'settings-input mono' : 'settings-input'}
      value={draft[key] as string}
      placeholder={placeholder}
      spellCheck={false}
      aria-invalid={problems[key] ? true : undefined}
      onChange={(e) => set(key, e.target.value as never)}
    />
  );
  const triState = (key: 'nativeTools' | 'stream', labels: [string, string, string]) => (
    <select id={`profile-${key}`} data-testid={`profile-${key}`} className="settings-input" value={draft[key]} onChange={(e) => set(key, e.target.value as ProfileDraft[typeof key])}>
      <option value="">{labels[0]}</option>
      <option value="true">{labels[1]}</option>
      <option value="false">{labels[2]}</option>
    </select>
  );

  const preset = draft.provider === 'openai' ? presetForBaseUrl(draft.baseUrl) : undefined;
  const presetField = draft.provider === 'openai' && (
    <div className="settings-field">
      <label htmlFor="profile-preset">Preset</label>
      <select
        id="profile-preset"
        data-testid="profile-preset"
        className="settings-input"
        value={preset?.id}
        onChange={(e) => {
          const picked = PROVIDER_PRESETS.find((p) => p.id === e.target.value);
          if (picked) onChange(applyPreset(draft, picked));
        }}
      >
        {PROVIDER_PRESETS.map((p) => (
          <option key={p.id} value={p.id}>
            {p.label}
          </option>
        ))}
      </select>
      <div className="settings-help" data-testid="profile-preset-help">
        {preset?.help}
      </div>
    </div>
  );

  return (
    <div className="settings-editor" data-testid="profile-editor" data-profile={draft.name}>
      <div className="settings-editor-head">
        <h3>{draft.name || 'Unnamed profile'}</h3>
        {isDefault ? (
          <span className="settings-default-tag">default</span>
        ) : (
          <button className="btn small" data-testid="profile-make-default" onClick={onMakeDefault}>
            Make default
          </button>
        )}
        <span className="settings-spacer" />
        <button className="btn small" data-testid="profile-test" disabled={check?.running} onClick={onTest}>
          {check?.running ? 'Testing…' : 'Test connection'}
        </button>
        <button className="btn small danger" data-testid="profile-delete" onClick={onDelete}>
          Delete
        </button>
      </div>
      <ConnectionResult check={check} />
      <FieldProblem message={problems.profile} />
      <div className="settings-grid">
        {field('name', 'Profile name', text('name', 'e.g. local-llama', false), 'Crews refer to it by this name.')}
        {field(
          'provider',
          'Provider',
          <select id="profile-provider" data-testid="profile-provider" className="settings-input" value={draft.provider} onChange={(e) => set('provider', e.target.value as ProfileDraft['provider'])}>
            <option value="openai">OpenAI-compatible (OpenAI, Ollama, LM Studio, vLLM, OpenRouter…)</option>
            <option value="scripted">Scripted (deterministic replies from a script)</option>
          </select>,
        )}
        {presetField}
        {field('model', 'Model', text('model', draft.provider === 'openai' ? 'gpt-4.1-mini' : 'demo'))}
        {draft.provider === 'openai' && field('baseUrl', 'Base URL', text('baseUrl', 'https://api.openai.com/v1'), 'Leave empty for OpenAI (or OPENAI_BASE_URL).')}
        {draft.provider === 'openai' && field('apiKeyEnv', 'API key variable', text('apiKeyEnv', 'OPENAI_API_KEY'), 'The environment variable (or stored key) holding the API key.')}
        {draft.provider === 'scripted' &&
          field(
            'script',
            'Script file',
            text('script', draft.inlineScript ? 'inline script in crewdeck.json' : 'scripts/demo.script.json'),
            draft.inlineScript ? 'This profile has an inline script; type a path to replace it.' : 'Relative to the document that uses it.',
          )}
        {field('temperature', 'Temperature', text('temperature', 'model default'))}
        {field('maxTokens', 'Max tokens', text('maxTokens', 'model default'))}
        {field('nativeTools', 'Tool calling', triState('nativeTools', ['Automatic', 'Native tool calls', 'ReAct text protocol']))}
        {draft.provider === 'openai' && field('stream', 'Streaming', triState('stream', ['Default (off)', 'Stream replies', 'Do not stream']))}
        {draft.provider === 'openai' && field('timeoutMs', 'Timeout (ms)', text('timeoutMs', 'SDK default'))}
        {draft.provider === 'openai' && field('maxRetries', 'Max retries', text('maxRetries', '2'))}
      </div>
    </div>
  );
}
