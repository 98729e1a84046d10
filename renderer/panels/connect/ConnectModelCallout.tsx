import { useSettingsStore } from '../../stores/settingsStore';
import { useConnectModelStore } from './connectModelStore';

/**
 * First run: a workspace with no model profile (and no OpenAI key in the environment) says so in the
 * sidebar, with *Connect a model…*. It goes away once a profile is saved.
 */
export function ConnectModelCallout() {
  const wanted = useSettingsStore(
    (s) => s.loaded && !s.loadError && Object.keys(s.settings?.models.profiles ?? {}).length === 0 && !s.keys.some((k) => k.name === 'OPENAI_API_KEY' && k.present),
  );
  if (!wanted) return null;
  return (
    <div className="connect-callout" data-testid="connect-callout">
      <div className="connect-callout-title">No model connected</div>
      <div className="connect-callout-text">The examples run on a scripted demo model. Your own crews need a real one.</div>
      <button className="btn small primary" data-testid="connect-open" onClick={() => useConnectModelStore.getState().setOpen(true)}>
        Connect a model…
      </button>
    </div>
  );
}
