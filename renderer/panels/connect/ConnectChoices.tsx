import { useState } from 'react';
import type { InlineModel } from '../../../shared/model/modelRef';
import { PROVIDER_PRESETS } from '../../../shared/model/providerPresets';
import { useSettingsStore } from '../../stores/settingsStore';
import { freeProfileName, useConnectModelStore, type LocalServer } from './connectModelStore';

const busySelector = (s: { stage: string }) => s.stage === 'working';

/** Tool calling as the preset for this server sets it (LM Studio and vLLM default to ReAct). */
function presetModel(id: string, baseUrl: string, model: string): InlineModel {
  const preset = PROVIDER_PRESETS.find((p) => p.id === id);
  return { provider: 'openai', model, baseUrl, ...(preset?.nativeTools === undefined ? {} : { nativeTools: preset.nativeTools }) };
}

/** Ollama, LM Studio and vLLM looked for on 127.0.0.1 (when this panel opened): pick a found one and a model. */
export function LocalServerChoice() {
  const probing = useConnectModelStore((s) => s.probing);
  const servers = useConnectModelStore((s) => s.servers);
  const found = servers?.filter((s) => s.found) ?? [];
  return (
    <div className="connect-local" data-testid="connect-local">
      <p className="dialog-hint">Looked for on this machine only (127.0.0.1): Ollama on port 11434, LM Studio on 1234, vLLM on 8000.</p>
      {probing && <div className="connect-step">Looking…</div>}
      {!probing && servers && found.length === 0 && (
        <div className="connect-empty" data-testid="connect-none-found">
          None is running. Start one (<code>ollama serve</code>, LM Studio’s local server, <code>vllm serve …</code>) and look again, or connect by URL.
        </div>
      )}
      {found.map((server) => (
        <LocalServerRow key={server.id} server={server} />
      ))}
      <button className="btn small" data-testid="connect-probe" disabled={probing} onClick={() => void useConnectModelStore.getState().probe()}>
        Look again
      </button>
    </div>
  );
}

function LocalServerRow({ server }: { server: LocalServer }) {
  const busy = useConnectModelStore(busySelector);
  const [model, setModel] = useState(server.models[0] ?? '');
  const id = `connect-local-${server.id}`;
  const connect = () => {
    const name = freeProfileName(useSettingsStore.getState().settings, server.id);
    void useConnectModelStore.getState().connect(name, presetModel(server.id, server.baseUrl, model));
  };
  return (
    <div className="connect-server" data-testid="connect-server" data-server={server.id}>
      <div className="connect-server-head">
        <strong>{server.label}</strong> <code>{server.baseUrl}</code>
      </div>
      {server.error && <div className="dialog-hint">{server.error}</div>}
      <div className="connect-row">
        <label htmlFor={id} className="visually-hidden">
          Model on {server.label}
        </label>
        {server.models.length > 0 ? (
          <select id={id} className="dialog-input" value={model} onChange={(e) => setModel(e.target.value)}>
            {server.models.map((m) => (
              <option key={m} value={m}>
                {m}
              </option>
            ))}
          </select>
        ) : (
          <input id={id} className="dialog-input mono" placeholder="model name" value={model} onChange={(e) => setModel(e.target.value)} />
        )}
        <button className="btn primary" data-testid="connect-local-go" disabled={busy || !model.trim()} onClick={connect}>
          Connect
        </button>
      </div>
    </div>
  );
}

/**
 * Any OpenAI-compatible server by its base URL. The model may be left empty: the profile is saved with
 * `default` (servers with one model take any name) and the server's list is offered once it answers.
 */
export function UrlChoice() {
  const busy = useConnectModelStore(busySelector);
  const [baseUrl, setBaseUrl] = useState('');
  const [model, setModel] = useState('');
  const [keyVar, setKeyVar] = useState('');
  const problem = urlProblem(baseUrl);
  const connect = () => {
    const host = hostLabel(baseUrl);
    const name = freeProfileName(useSettingsStore.getState().settings, host);
    const inline: InlineModel = { provider: 'openai', model: model.trim() || 'default', baseUrl: baseUrl.trim(), ...(keyVar.trim() ? { apiKeyEnv: keyVar.trim() } : {}) };
    void useConnectModelStore.getState().connect(name, inline);
  };
  return (
    <form
      className="connect-url"
      onSubmit={(e) => {
        e.preventDefault();
        if (!problem) connect();
      }}
    >
      <div className="dialog-field">
        <label htmlFor="connect-base-url" className="dialog-field-label">
          Base URL
        </label>
        <input
          id="connect-base-url"
          data-testid="connect-base-url"
          className="dialog-input mono"
          placeholder="http://127.0.0.1:11434/v1"
          value={baseUrl}
          spellCheck={false}
          onChange={(e) => setBaseUrl(e.target.value)}
        />
        {baseUrl.trim() && problem && <div className="connect-problem">{problem}</div>}
      </div>
      <div className="connect-row">
        <div className="dialog-field">
          <label htmlFor="connect-url-model" className="dialog-field-label">
            Model <span className="dialog-note">optional: pick from the server’s list</span>
          </label>
          <input id="connect-url-model" data-testid="connect-url-model" className="dialog-input mono" value={model} spellCheck={false} onChange={(e) => setModel(e.target.value)} />
        </div>
        <div className="dialog-field">
          <label htmlFor="connect-url-key" className="dialog-field-label">
            API key variable <span className="dialog-note">only if it needs a key</span>
          </label>
          <input id="connect-url-key" className="dialog-input mono" placeholder="e.g. MY_SERVER_KEY" value={keyVar} spellCheck={false} onChange={(e) => setKeyVar(e.target.value)} />
        </div>
      </div>
      <button className="btn primary" type="submit" data-testid="connect-url-go" disabled={busy || !baseUrl.trim() || Boolean(problem)}>
        Connect
      </button>
    </form>
  );
}

/** An OpenAI key: stored in the OS keychain by the desktop app; read from `crewdeck serve`'s environment in browser mode. */
export function OpenAiKeyChoice() {
  const busy = useConnectModelStore(busySelector);
  const secrets = useSettingsStore((s) => s.secrets);
  const present = secrets?.names.find((n) => n.name === 'OPENAI_API_KEY')?.present ?? false;
  const writable = secrets?.writable ?? false;
  const [key, setKey] = useState('');
  const connect = async () => {
    if (writable && key && !(await useSettingsStore.getState().setSecret('OPENAI_API_KEY', key))) return;
    setKey('');
    const name = freeProfileName(useSettingsStore.getState().settings, 'openai');
    void useConnectModelStore.getState().connect(name, { provider: 'openai', model: 'gpt-4.1-mini', apiKeyEnv: 'OPENAI_API_KEY', nativeTools: true });
  };
  return (
    <div className="connect-openai">
      {writable ? (
        <div className="dialog-field">
          <label htmlFor="connect-openai-key" className="dialog-field-label">
            OpenAI API key {present && <span className="dialog-note">a key is stored; paste another to replace it</span>}
          </label>
          <input id="connect-openai-key" type="password" autoComplete="off" className="dialog-input mono" placeholder="sk-…" value={key} onChange={(e) => setKey(e.target.value)} />
          <div className="dialog-field-help">Kept in the operating system keychain; it never reaches documents, events or logs.</div>
        </div>
      ) : present ? (
        <p className="dialog-hint">
          <code>OPENAI_API_KEY</code> is set in the environment of <code>crewdeck serve</code>.
        </p>
      ) : (
        <p className="dialog-hint" data-testid="connect-openai-env">
          In browser mode keys come from the environment of <code>crewdeck serve</code>: start it with <code>OPENAI_API_KEY=sk-… npx crewdeck serve</code>, then connect here.
        </p>
      )}
      <button className="btn primary" data-testid="connect-openai-go" disabled={busy || (writable ? !key && !present : !present)} onClick={() => void connect()}>
        Connect
      </button>
    </div>
  );
}

function urlProblem(value: string): string | undefined {
  try {
    const url = new URL(value.trim());
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'the URL must start with http:// or https://';
    return undefined;
  } catch {
    return 'not a URL yet (e.g. http://127.0.0.1:11434/v1)';
  }
}

/** A profile name from the URL: `local` for this machine, else the host's first label. */
function hostLabel(value: string): string {
  try {
    const host = new URL(value.trim()).hostname.toLowerCase();
    if (host === 'localhost' || host === '[::1]' || host.startsWith('127.')) return 'local';
    return host.split('.').find((p) => p && p !== 'www' && p !== 'api')?.replace(/[^a-z0-9-]/g, '') || 'server';
  } catch {
    return 'server';
  }
}
