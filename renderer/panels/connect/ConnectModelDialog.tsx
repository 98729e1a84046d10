import { useEffect, useState } from 'react';
import { Modal } from '../../dialogs/Modal';
import { useSettingsStore } from '../../stores/settingsStore';
import { useTrustStore } from '../../stores/trustStore';
import { TrustFlow } from '../trust/TrustFlow';
import '../../styles/connect-model.css';
import { useConnectModelStore, type ConnectChoice } from './connectModelStore';
import { LocalServerChoice, OpenAiKeyChoice, UrlChoice } from './ConnectChoices';

const CHOICES: { id: ConnectChoice; label: string }[] = [
  { id: 'local', label: 'A server on this machine' },
  { id: 'url', label: 'Any OpenAI-compatible URL' },
  { id: 'openai', label: 'OpenAI API key' },
];

/**
 * *Connect a model* (first run, Settings, the Run dialog, Ctrl+K): a model in one step. A local server
 * found on its usual port, any OpenAI-compatible URL, or an OpenAI key; the profile is saved, made the
 * default and tested, with the server's models to pick from. A base URL on this machine is the user's
 * own (no trust step); one on another host is confirmed once with the same Trust… flow as the banner.
 */
export function ConnectModelDialog() {
  const open = useConnectModelStore((s) => s.open);
  if (!open) return null;
  return <ConnectModelForm />;
}

function ConnectModelForm() {
  const choice = useConnectModelStore((s) => s.choice);
  const stage = useConnectModelStore((s) => s.stage);
  const close = () => useConnectModelStore.getState().setOpen(false);

  return (
    <Modal
      testId="connect-model"
      title="Connect a model"
      subtitle="Crews and flows run on it: it becomes the default profile, used by every agent that names no model of its own."
      width={700}
      onClose={close}
      footer={
        <>
          <span className="modal-foot-spacer" />
          <button className="btn" data-testid="connect-close" onClick={close}>
            {stage === 'done' ? 'Close' : 'Cancel'}
          </button>
        </>
      }
    >
      <div className="connect-choices" role="radiogroup" aria-label="What to connect">
        {CHOICES.map((c) => (
          <label key={c.id} className="connect-choice" data-selected={choice === c.id}>
            <input
              type="radio"
              name="connect-choice"
              value={c.id}
              data-testid={`connect-choice-${c.id}`}
              checked={choice === c.id}
              disabled={stage === 'working'}
              onChange={() => useConnectModelStore.getState().setChoice(c.id)}
            />
            {c.label}
          </label>
        ))}
      </div>
      {stage !== 'done' && (
        <div className="connect-body">
          {choice === 'local' && <LocalServerChoice />}
          {choice === 'url' && <UrlChoice />}
          {choice === 'openai' && <OpenAiKeyChoice />}
        </div>
      )}
      <ConnectProgress />
    </Modal>
  );
}

/** What happens after Connect: saving and testing, the Trust… flow, the model list, the result. */
function ConnectProgress() {
  const stage = useConnectModelStore((s) => s.stage);
  const step = useConnectModelStore((s) => s.step);
  const error = useConnectModelStore((s) => s.error);
  const profile = useConnectModelStore((s) => s.profile);
  const models = useConnectModelStore((s) => s.models);
  const entered = useConnectModelStore((s) => s.entered);
  const trusted = useTrustStore((s) => s.status?.trusted);
  const [picked, setPicked] = useState('');

  // The Trust… flow finished (here, in the banner or at the terminal): carry on with the test.
  useEffect(() => {
    if (stage === 'trust') void useConnectModelStore.getState().continueAfterTrust();
  }, [stage, trusted]);
  useEffect(() => setPicked(models[0] ?? ''), [models]);

  return (
    <div className="connect-progress" aria-live="polite">
      {stage === 'working' && step && (
        <div className="connect-step" data-testid="connect-step">
          {step}
        </div>
      )}
      {error && (
        <div className="dialog-error" data-testid="connect-error" role="alert">
          {error}
        </div>
      )}
      {stage === 'trust' && profile && (
        <div className="connect-trust" data-testid="connect-trust">
          <strong>
            Confirm <code>{profile.model.baseUrl}</code> once.
          </strong>{' '}
          It is saved, but it is on another host, receives a key, or its port is one this workspace named itself: runs and tests reach it once you trust it.
          <TrustFlow />
        </div>
      )}
      {stage === 'choose' && profile && (
        <form
          className="connect-pick"
          data-testid="connect-pick"
          onSubmit={(e) => {
            e.preventDefault();
            if (picked) void useConnectModelStore.getState().chooseModel(picked);
          }}
        >
          <label htmlFor="connect-model-pick">
            Connected. The server lists {models.length} model{models.length === 1 ? '' : 's'}; which one should “{profile.name}” use?
          </label>
          <div className="connect-row">
            <select id="connect-model-pick" data-testid="connect-model-pick" className="dialog-input" value={picked} onChange={(e) => setPicked(e.target.value)}>
              {models.map((m) => (
                <option key={m} value={m}>
                  {m}
                </option>
              ))}
            </select>
            <button className="btn primary" type="submit" data-testid="connect-use-model" disabled={!picked}>
              Use this model
            </button>
          </div>
        </form>
      )}
      {stage === 'done' && profile && <ConnectDone name={profile.name} model={profile.model.model} baseUrl={profile.model.baseUrl} entered={entered} />}
    </div>
  );
}

function ConnectDone({ name, model, baseUrl, entered }: { name: string; model: string; baseUrl?: string; entered: string[] }) {
  const isDefault = useSettingsStore((s) => s.settings?.models.default === name);
  return (
    <div className="connect-done" data-testid="connect-done">
      <strong>Connected.</strong> The profile <code>{name}</code> runs <code>{model}</code>
      {baseUrl ? (
        <>
          {' '}
          on <code>{baseUrl}</code>
        </>
      ) : null}
      {isDefault ? ' and is now the default: agents without a model of their own use it.' : '.'}
      {baseUrl && entered.includes(baseUrl) && <div className="connect-note">A server on this machine that you entered: it is yours for this workspace, so running on it needs no trust step.</div>}
    </div>
  );
}
