import { useEffect, useState } from 'react';
import type { HostResponse } from '../../../shared/host-api';
import { host } from '../../host/hostContext';
import { useSettingsStore } from '../../stores/settingsStore';

type TeamStatus = HostResponse<'team.status'>;

/**
 * Settings → Team server: the URL of the team server this workspace runs on and lists runs from
 * (`crewdeck.json` `team.server`). The personal key is CREWDECK_API_KEY, kept like a model key (see API keys).
 */
export function TeamServerSection() {
  const settings = useSettingsStore((s) => s.settings);
  const saving = useSettingsStore((s) => s.saving);
  const savedAt = useSettingsStore((s) => s.savedAt);
  const [url, setUrl] = useState('');
  const [problem, setProblem] = useState<string>();
  const [status, setStatus] = useState<TeamStatus>();

  useEffect(() => setUrl(settings?.team?.server ?? ''), [settings?.team?.server]);
  useEffect(() => {
    let live = true;
    host()
      .invoke('team.status', {})
      .then((s) => live && setStatus(s))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [savedAt, settings?.team?.server]);

  const save = async () => {
    if (!settings) return;
    const trimmed = url.trim();
    if (trimmed !== '' && !/^https?:\/\/[^\s/]+/i.test(trimmed)) {
      setProblem(`"${trimmed}" is not an http:// or https:// URL`);
      return;
    }
    setProblem(undefined);
    const { team: _team, ...rest } = settings;
    await useSettingsStore.getState().save(trimmed === '' ? rest : { ...rest, team: { server: trimmed } });
  };

  return (
    <section className="settings-section" aria-labelledby="settings-team" data-testid="settings-team">
      <h2 id="settings-team">Team server</h2>
      <p className="settings-help">
        Run crews on your team's server, list its runs beside yours and share runs with it. Your key goes in <code>CREWDECK_API_KEY</code> under API keys (ask for one made
        with <code>crewdeck server keys create</code>).
      </p>
      <div className="team-server-row">
        <label htmlFor="team-server-url">URL</label>
        <input id="team-server-url" data-testid="team-server-url" type="url" placeholder="http://team-host:8787" value={url} onChange={(e) => setUrl(e.target.value)} />
        <button className="btn small" data-testid="team-server-save" disabled={saving || url.trim() === (settings?.team?.server ?? '')} onClick={() => void save()}>
          Save
        </button>
      </div>
      {problem && <div className="dialog-error">{problem}</div>}
      {status?.configured && (
        <p className="settings-help" data-testid="team-server-status">
          {!status.keyPresent ? 'No key yet: set CREWDECK_API_KEY under API keys.' : status.error ? `The server did not answer: ${status.error}` : `Runs on ${status.server} are listed in the Runs tab, marked “team”.`}
        </p>
      )}
    </section>
  );
}
