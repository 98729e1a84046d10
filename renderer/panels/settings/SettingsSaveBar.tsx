import { useSettingsStore, type Problem } from '../../stores/settingsStore';

/** Under the profiles: the problems of no one profile, the save state, Revert and Save settings. */
export function SettingsSaveBar({ dirty, general, onRevert, onSave }: { dirty: boolean; general: Problem[]; onRevert(): void; onSave(): void }) {
  const saving = useSettingsStore((s) => s.saving);
  const saveError = useSettingsStore((s) => s.saveError);
  const savedAt = useSettingsStore((s) => s.savedAt);
  return (
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
      <button className="btn" disabled={!dirty || saving} onClick={onRevert}>
        Revert
      </button>
      <button className="btn primary" data-testid="settings-save" disabled={!dirty || saving} onClick={onSave}>
        {saving ? 'Saving…' : 'Save settings'}
      </button>
    </div>
  );
}
