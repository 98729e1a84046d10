import { useSettingsStore } from '../../stores/settingsStore';
import { useConnectModelStore } from '../connect/connectModelStore';
import { ProfileEditor } from './ProfileEditor';
import { ProfileList } from './ProfileList';
import { SettingsSaveBar } from './SettingsSaveBar';
import { SettingsTrust } from './SettingsTrust';
import { useProfileDrafts } from './useProfileDrafts';

/** Model profiles: add, edit, delete, pick the default, test a connection; saved together (Save settings). */
export function ModelProfilesSection() {
  const loaded = useSettingsStore((s) => s.loaded);
  const checks = useSettingsStore((s) => s.checks);
  const { drafts, defaultName, selectedKey, setSelectedKey, selected, dirty, hostProblems, localProblems, general, add, change, remove, chooseDefault, save, revert, test } = useProfileDrafts();

  return (
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
          <ProfileList
            drafts={drafts}
            selectedKey={selectedKey}
            defaultName={defaultName}
            invalid={(key) => Boolean(hostProblems[key] || localProblems[key])}
            onSelect={setSelectedKey}
            onAdd={add}
            onDefault={chooseDefault}
          />
          {selected ? (
            <ProfileEditor
              draft={selected}
              isDefault={selected.name === defaultName}
              problems={{ ...hostProblems[selected.key], ...localProblems[selected.key] }}
              check={checks[selected.key]}
              onChange={(next) => change(selected, next)}
              onMakeDefault={() => chooseDefault(selected.name)}
              onDelete={() => remove(selected)}
              onTest={() => test(selected)}
            />
          ) : (
            <div className="settings-editor settings-help">Add a profile to configure a model.</div>
          )}
        </div>
      )}
      <SettingsSaveBar dirty={dirty} general={general} onRevert={revert} onSave={() => void save()} />
    </section>
  );
}
