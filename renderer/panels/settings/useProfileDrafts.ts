import { useEffect, useEffectEvent, useMemo, useState } from 'react';
import type { WorkspaceSettings } from '../../../shared/model/workspace';
import { useSettingsStore } from '../../stores/settingsStore';
import { buildSettings } from './buildSettings';
import { generalProblems, problemsByProfile, type ProfileProblems } from './problemsByProfile';
import { blankDraft, fromDraft, toDraft, type ProfileDraft } from './profileDraft';

/**
 * The model profiles as the form edits them: drafts of the saved profiles (taken again when the saved
 * settings change, unless the form has unsaved edits), the default, the selected profile, the form's
 * and the host's problems, and the actions that edit, save, revert and test them.
 */
export function useProfileDrafts() {
  const settings = useSettingsStore((s) => s.settings);
  const saveProblems = useSettingsStore((s) => s.saveProblems);

  const [drafts, setDrafts] = useState<ProfileDraft[]>([]);
  const [defaultName, setDefaultName] = useState<string>();
  const [selectedKey, setSelectedKey] = useState<string>();
  const [dirty, setDirty] = useState(false);
  const [localProblems, setLocalProblems] = useState<ProfileProblems>({});

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
  const chooseDefault = (name: string | undefined) => {
    setDefaultName(name);
    setDirty(true);
  };

  const add = () => {
    let n = drafts.length + 1;
    while (drafts.some((d) => d.name === `profile-${n}`)) n++;
    const draft = blankDraft(`profile-${n}`);
    edit([...drafts, draft]);
    setSelectedKey(draft.key);
  };

  /** The selected profile edited: its new name stays the default if it was. */
  const change = (current: ProfileDraft, next: ProfileDraft) => {
    if (current.name === defaultName && next.name !== current.name) setDefaultName(next.name);
    edit(drafts.map((d) => (d.key === next.key ? next : d)));
  };

  const remove = (draft: ProfileDraft) => {
    const rest = drafts.filter((d) => d.key !== draft.key);
    if (defaultName === draft.name) setDefaultName(undefined);
    edit(rest);
    setSelectedKey(rest[0]?.key);
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

  const general = generalProblems(saveProblems, drafts);

  return { drafts, defaultName, selectedKey, setSelectedKey, selected, dirty, hostProblems, localProblems, general, add, change, remove, chooseDefault, save, revert, test };
}
