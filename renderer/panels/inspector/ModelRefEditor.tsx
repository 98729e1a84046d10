import { isRecord } from '../../commands/crewDraft';
import { controlId, Field } from './Field';
import { NumberField } from './NumberField';
import { SelectField } from './SelectField';
import { TextField } from './TextField';

type Props = {
  label: string;
  path: string;
  value: unknown;
  onChange(value: unknown): void;
  profiles: readonly string[];
  /** What "not set" means here ("workspace default model", "the agent's model"…). */
  defaultLabel?: string;
  /** What the model is used for, under the mode selector. */
  hint?: string;
};

type Mode = 'default' | 'profile' | 'inline';

/**
 * A ModelRef: not set (the workspace default), a profile name from workspace settings, or an inline
 * model (provider, model, base URL, temperature, max tokens; scripted models take a script).
 */
export function ModelRefEditor({ label, path, value, onChange, profiles, defaultLabel = 'Workspace default', hint }: Props) {
  const mode: Mode = value === undefined ? 'default' : typeof value === 'string' ? 'profile' : 'inline';
  const inline = isRecord(value) ? value : {};
  const set = (patch: Record<string, unknown>) => {
    const next: Record<string, unknown> = { ...inline };
    for (const [k, v] of Object.entries(patch)) {
      if (v === undefined) delete next[k];
      else next[k] = v;
    }
    onChange(next);
  };
  const switchMode = (next: Mode) => {
    if (next === mode) return;
    if (next === 'default') onChange(undefined);
    else if (next === 'profile') onChange(profiles[0] ?? '');
    else onChange({ provider: 'openai', model: 'gpt-4.1-mini' });
  };
  const listId = `${controlId(path)}-profiles`;

  return (
    <div className="insp-group">
      <SelectField
        label={label}
        path={path}
        exactProblems
        value={mode}
        options={[
          { value: 'default', label: defaultLabel },
          { value: 'profile', label: 'Model profile' },
          { value: 'inline', label: 'Custom model' },
        ]}
        onChange={(v) => switchMode(v as Mode)}
        hint={hint}
        testId={`${controlId(path)}-mode`}
      />
      {mode === 'profile' && (
        <Field label="Profile" htmlFor={`${controlId(path)}-profile`} path={path} exactProblems hint={profiles.length === 0 ? 'Profiles are defined in Settings.' : undefined}>
          <input
            id={`${controlId(path)}-profile`}
            className="insp-input"
            list={listId}
            value={typeof value === 'string' ? value : ''}
            onChange={(e) => onChange(e.target.value)}
          />
          <datalist id={listId}>
            {profiles.map((p) => (
              <option key={p} value={p} />
            ))}
          </datalist>
        </Field>
      )}
      {mode === 'inline' && (
        <div className="insp-subgrid">
          <SelectField
            label="Provider"
            path={`${path}.provider`}
            value={typeof inline.provider === 'string' ? inline.provider : ''}
            options={[
              { value: 'openai', label: 'OpenAI-compatible' },
              { value: 'scripted', label: 'Scripted (offline)' },
            ]}
            onChange={(v) => set({ provider: v })}
          />
          <TextField label="Model" path={`${path}.model`} value={inline.model} onChange={(v) => set({ model: v ?? '' })} mono testId={`${controlId(path)}-model`} />
          {inline.provider !== 'scripted' && (
            <TextField label="Base URL" path={`${path}.baseUrl`} value={inline.baseUrl} optional onChange={(v) => set({ baseUrl: v })} mono placeholder="https://api.openai.com/v1" />
          )}
          {inline.provider !== 'scripted' && (
            <TextField label="API key variable" path={`${path}.apiKeyEnv`} value={inline.apiKeyEnv} optional onChange={(v) => set({ apiKeyEnv: v })} mono placeholder="OPENAI_API_KEY" />
          )}
          {inline.provider === 'scripted' && (
            <TextField label="Script" path={`${path}.script`} value={inline.script} optional onChange={(v) => set({ script: v })} mono placeholder="scripts/demo.script.json" />
          )}
          <div className="insp-row">
            <NumberField label="Temperature" path={`${path}.temperature`} value={inline.temperature} step={0.1} min={0} onChange={(v) => set({ temperature: v })} placeholder="provider default" />
            <NumberField label="Max tokens" path={`${path}.maxTokens`} value={inline.maxTokens} min={1} onChange={(v) => set({ maxTokens: v })} placeholder="—" />
          </div>
        </div>
      )}
    </div>
  );
}
