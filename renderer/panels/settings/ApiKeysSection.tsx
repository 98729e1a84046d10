import { useState } from 'react';
import { useSettingsStore } from '../../stores/settingsStore';

/**
 * API keys: stored in the OS keychain by the desktop app; in browser mode (not writable) the keys
 * come from environment variables of `crewdeck serve`, so only their presence is shown.
 */
export function ApiKeysSection() {
  const secrets = useSettingsStore((s) => s.secrets);
  const keys = useSettingsStore((s) => s.keys);
  const error = useSettingsStore((s) => s.secretError);
  const names = new Map<string, { present: boolean; stored: boolean }>();
  for (const k of keys) names.set(k.name, { present: k.present, stored: false });
  for (const s of secrets?.names ?? []) names.set(s.name, { present: s.present, stored: s.stored });
  const writable = secrets?.writable ?? false;

  return (
    <section className="settings-section" aria-labelledby="settings-keys">
      <h2 id="settings-keys">API keys</h2>
      {writable ? (
        <p className="settings-help">Keys are encrypted with the operating system keychain and never leave this machine's host process.</p>
      ) : (
        <p className="settings-help" data-testid="keys-readonly">
          In browser mode Crewdeck reads API keys from the environment of the <code>crewdeck serve</code> process; they cannot be stored from here. Set them before
          starting it, e.g. <code>OPENAI_API_KEY=sk-… npx crewdeck serve</code>.
        </p>
      )}
      <table className="settings-keys">
        <tbody>
          {[...names.entries()].map(([name, state]) => (
            <KeyRow key={name} name={name} present={state.present} stored={state.stored} writable={writable} />
          ))}
        </tbody>
      </table>
      {error && <div className="dialog-error">{error}</div>}
    </section>
  );
}

function KeyRow({ name, present, stored, writable }: { name: string; present: boolean; stored: boolean; writable: boolean }) {
  const [value, setValue] = useState('');
  const id = `secret-${name}`;
  // setSecret catches its own failures (they show as the section's error) and answers whether it stored the key.
  const save = async () => {
    if (await useSettingsStore.getState().setSecret(name, value)) setValue('');
  };
  return (
    <tr data-testid="key-row" data-key={name} data-present={present}>
      <td>
        <code>{name}</code>
      </td>
      <td>
        <span className="settings-key-state" data-present={present}>
          {stored ? 'stored' : present ? 'set in environment' : 'not set'}
        </span>
      </td>
      {writable && (
        <td className="settings-key-edit">
          <label htmlFor={id} className="visually-hidden">
            New value for {name}
          </label>
          <input id={id} type="password" className="settings-input mono" placeholder={stored ? 'replace key…' : 'paste key…'} value={value} autoComplete="off" onChange={(e) => setValue(e.target.value)} />
          <button
            className="btn small"
            disabled={!value}
            onClick={() => void save()}
          >
            Save
          </button>
          {stored && (
            <button className="btn small danger" onClick={() => void useSettingsStore.getState().deleteSecret(name)}>
              Remove
            </button>
          )}
        </td>
      )}
    </tr>
  );
}
