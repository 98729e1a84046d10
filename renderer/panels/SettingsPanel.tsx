import { useEffect, useEffectEvent, useMemo, useState } from 'react';
import type { InlineModel } from '../../shared/model/modelRef';
import type { WorkspaceSettings } from '../../shared/model/workspace';
import { useSettingsStore, type Problem } from '../stores/settingsStore';
import { useUiStore } from '../stores/uiStore';
import '../styles/settings.css';
import { ApiKeysSection } from './settings/ApiKeysSection';
import { McpServersSection } from './settings/McpServersSection';
import { PricesSection } from './settings/PricesSection';
import { TeamServerSection } from './settings/TeamServerSection';
import { ProfileEditor } from './settings/ProfileEditor';
import { SettingsTrust } from './settings/SettingsTrust';
import { useConnectModelStore } from './connect/connectModelStore';
import { blankDraft, fromDraft, toDraft, type DraftField, type ProfileDraft } from './settings/profileDraft';

const DRAFT_FIELDS = new Set<string>(['name', 'provider', 'model', 'baseUrl', 'apiKeyEnv', 'temperature', 'maxTokens', 'timeoutMs', 'maxRetries', 'nativeTools', 'stream', 'script']);

/** Workspace settings: model profiles (add, edit, delete, default, test connection), API keys, theme. */
export function SettingsPanel() {
  const loaded = useSettingsStore((s) => s.loaded);
  const loadError = useSettingsStore((s) => s.loadError);
  const settings = useSettingsStore((s) => s.settings);
  const fileProblems = useSettingsStore((s) => s.fileProblems);
  const saving = useSettingsStore((s) => s.saving);
  const saveProblems = useSettingsStore((s) => s.saveProblems);
  const saveError = useSettingsStore((s) => s.saveError);
  const savedAt = useSettingsStore((s) => s.savedAt);
  const checks = useSettingsStore((s) => s.checks);
  const theme = useUiStore((s) => s.theme);

  const [drafts, setDrafts] = useState<ProfileDraft[]>([]);
  const [defaultName, setDefaultName] = useState<string>();
  const [selectedKey, setSelectedKey] = useState<string>();
  const [dirty, setDirty] = useState(false);
  const [localProblems, setLocalProblems] = useState<Record<string, Partial<Record<DraftField | 'profile', string>>>>({});

  useEffect(() => {
    void useSettingsStore.getState().load();
  }, []);

  const showSaved = useEffectEvent((saved: WorkspaceSettings | undefined) => {
    if (!saved || dirty) return;
    const next = Object.entries(saved.models.profiles).map(([name, m]) => toDraft(name, m));
    setDrafts(next);
    setDefaultName(saved.models.default);
    setSelectedKey((key) => (next.some((d) => d.key === key) ? key : next[0]?.key));
  });
  // Only when the saved settings change, not on every edit (nor when the form stops being dirty).
  useEffect(() => showSaved(settings), [settings]);

  const hostProblems = useMemo(() => problemsByProfile(saveProblems, drafts), [saveProblems, drafts]);
  const selected = drafts.find((d) => d.key === selectedKey);
  const edit = (next: ProfileDraft[]) => {
    setDrafts(next);
    setDirty(true);
  };

  const add = () => {
    let n = drafts.length + 1;
    while (drafts.some((d) => d.name === `profile-${n}`)) n++;
    const draft = blankDraft(`profile-${n}`);
    edit([...drafts, draft]);
    setSelectedKey(draft.key);
  };

  const save = async () => {
    const { settings: next, problems } = buildSettings(drafts, defaultName);
    setLocalProblems(problems);
    if (!next) return;
    // The form edits model profiles only: other sections of crewdeck.json (memory, mcp) are kept.
    if (await useSettingsStore.getState().save({ ...settings, ...next })) setDirty(false);
  };

  const revert = () => {
    setDirty(false);
    setLocalProblems({});
    if (settings) {
      const next = Object.entries(settings.models.profiles).map(([name, m]) => toDraft(name, m));
      setDrafts(next);
      setDefaultName(settings.models.default);
      setSelectedKey(next[0]?.key);
    }
  };

  const test = (draft: ProfileDraft) => {
    const { model, errors } = fromDraft(draft);
    if (Object.keys(errors).length > 0) {
      setLocalProblems({ ...localProblems, [draft.key]: errors });
      return;
    }
    void useSettingsStore.getState().testConnection(draft.key, model);
  };

  const general = saveProblems.filter((p) => !drafts.some((d) => p.path.startsWith(`models.profiles.${d.name}`)));

  return (
    <div className="settings-panel" data-testid="settings-panel">
      <div className="settings-scroll">
        <header className="settings-head">
          <h1>Settings</h1>
          <p className="settings-help">
            Stored in <code>crewdeck.json</code> at the workspace root. Agents without a model use the default profile.
          </p>
        </header>
        {loadError && <div className="banner-error">Could not read the settings: {loadError}</div>}
        {fileProblems.length > 0 && (
          <div className="banner-error">
            crewdeck.json has problems and was not loaded; saving here replaces it.
            <ul className="dialog-problems">
              {fileProblems.map((p, i) => (
                <li key={i}>
                  <code>{p.path}</code>: {p.message}
                </li>
              ))}
            </ul>
          </div>
        )}

        <section className="settings-section" aria-labelledby="settings-models">
          <div className="settings-section-head">
            <h2 id="settings-models">Model profiles</h2>
            <button className="btn small primary" data-testid="settings-connect" onClick={() => useConnectModelStore.getState().setOpen(true)}>
              Connect a model…
            </button>
          </div>
          <SettingsTrust />
          {!loaded && <p className="settings-help">Loading…</p>}
          {loaded && (
            <div className="settings-profiles">
              <nav className="settings-profile-list" aria-label="Profiles">
                {drafts.map((d) => (
                  <button
                    key={d.key}
                    className="settings-profile-item"
                    data-testid="profile-item"
                    data-profile={d.name}
                    aria-current={d.key === selectedKey}
                    data-invalid={hostProblems[d.key] || localProblems[d.key] ? true : undefined}
                    onClick={() => setSelectedKey(d.key)}
                  >
                    <span className="settings-profile-name">
                      {d.name || 'unnamed'}
                      {d.name === defaultName && <span className="settings-default-tag">default</span>}
                    </span>
                    <span className="settings-profile-sub">
                      {d.provider} · {d.model || '—'}
                    </span>
                  </button>
                ))}
                {drafts.length === 0 && <p className="settings-help">No profiles yet. Crews then use OPENAI_MODEL (default gpt-4.1-mini) with OPENAI_API_KEY.</p>}
                <button className="btn small settings-add" data-testid="profile-add" onClick={add}>
                  + Add profile
                </button>
                <label className="settings-default-select" htmlFor="profile-default">
                  Default profile
                </label>
                <select
                  id="profile-default"
                  data-testid="profile-default"
                  className="settings-input"
                  value={defaultName ?? ''}
                  onChange={(e) => {
                    setDefaultName(e.target.value || undefined);
                    setDirty(true);
                  }}
                >
                  <option value="">None (OPENAI_MODEL)</option>
                  {drafts.map((d) => (
                    <option key={d.key} value={d.name}>
                      {d.name}
                    </option>
                  ))}
                </select>
              </nav>
              {selected ? (
                <ProfileEditor
                  draft={selected}
                  isDefault={selected.name === defaultName}
                  problems={{ ...hostProblems[selected.key], ...localProblems[selected.key] }}
                  check={checks[selected.key]}
                  onChange={(next) => {
                    if (selected.name === defaultName && next.name !== selected.name) setDefaultName(next.name);
                    edit(drafts.map((d) => (d.key === next.key ? next : d)));
                  }}
                  onMakeDefault={() => {
                    setDefaultName(selected.name);
                    setDirty(true);
                  }}
                  onDelete={() => {
                    const rest = drafts.filter((d) => d.key !== selected.key);
                    if (defaultName === selected.name) setDefaultName(undefined);
                    edit(rest);
                    setSelectedKey(rest[0]?.key);
                  }}
                  onTest={() => test(selected)}
                />
              ) : (
                <div className="settings-editor settings-help">Add a profile to configure a model.</div>
              )}
            </div>
          )}
          <div className="settings-savebar" data-dirty={dirty}>
            {general.length > 0 && (
              <ul className="dialog-problems settings-problems" data-testid="settings-problems">
                {general.map((p, i) => (
                  <li key={i}>
                    <code>{p.path}</code>: {p.message}
                  </li>
                ))}
              </ul>
            )}
            {saveError && <span className="settings-problem">{saveError}</span>}
            <span className="settings-save-state">{dirty ? 'Unsaved changes' : savedAt ? 'Saved' : ''}</span>
            <span className="settings-spacer" />
            <button className="btn" disabled={!dirty || saving} onClick={revert}>
              Revert
            </button>
            <button className="btn primary" data-testid="settings-save" disabled={!dirty || saving} onClick={() => void save()}>
              {saving ? 'Saving…' : 'Save settings'}
            </button>
          </div>
        </section>

        <PricesSection />

        <McpServersSection />

        <TeamServerSection />
        <ApiKeysSection />

        <section className="settings-section" aria-labelledby="settings-appearance">
          <h2 id="settings-appearance">Appearance</h2>
          <div className="settings-theme" role="radiogroup" aria-label="Theme">
            {(['dark', 'light'] as const).map((t) => (
              <label key={t} className="settings-theme-option" data-selected={theme === t}>
                <input type="radio" name="theme" value={t} checked={theme === t} onChange={() => useUiStore.getState().setTheme(t)} />
                {t === 'dark' ? 'Dark' : 'Light'}
              </label>
            ))}
          </div>
        </section>
      </div>
    </div>
  );
}

/** The settings to save, or the form problems (per draft key) that keep them from being sent. */
function buildSettings(drafts: ProfileDraft[], defaultName: string | undefined): { settings?: WorkspaceSettings; problems: Record<string, Partial<Record<DraftField | 'profile', string>>> } {
  const problems: Record<string, Partial<Record<DraftField | 'profile', string>>> = {};
  const profiles: Record<string, InlineModel> = {};
  const names = new Map<string, number>();
  for (const d of drafts) names.set(d.name.trim(), (names.get(d.name.trim()) ?? 0) + 1);
  for (const d of drafts) {
    const { model, errors } = fromDraft(d);
    if ((names.get(d.name.trim()) ?? 0) > 1) errors.name = 'another profile has this name';
    if (Object.keys(errors).length > 0) problems[d.key] = errors;
    profiles[d.name.trim()] = model;
  }
  if (Object.keys(problems).length > 0) return { problems };
  const models: WorkspaceSettings['models'] = { profiles };
  if (defaultName && defaultName in profiles) models.default = defaultName;
  return { settings: { version: 1, models }, problems };
}

/** Host problems (`models.profiles.<name>.<field>`) by draft key and field. */
function problemsByProfile(problems: Problem[], drafts: ProfileDraft[]): Record<string, Partial<Record<DraftField | 'profile', string>>> {
  const out: Record<string, Partial<Record<DraftField | 'profile', string>>> = {};
  for (const p of problems) {
    const draft = drafts.find((d) => p.path === `models.profiles.${d.name}` || p.path.startsWith(`models.profiles.${d.name}.`));
    if (!draft) continue;
    const rest = p.path.slice(`models.profiles.${draft.name}`.length + 1);
    const [field = ''] = rest.split('.');
    const key = DRAFT_FIELDS.has(field) ? (field as DraftField) : 'profile';
    out[draft.key] = { ...out[draft.key], [key]: key === 'profile' && rest ? `${rest}: ${p.message}` : p.message };
  }
  return out;
}
