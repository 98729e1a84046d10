import type { InlineModel } from '../../../shared/model/modelRef';
import type { WorkspaceSettings } from '../../../shared/model/workspace';
import type { ProfileProblems } from './problemsByProfile';
import { fromDraft, type ProfileDraft } from './profileDraft';

/** The settings to save, or the form problems (per draft key) that keep them from being sent. */
export function buildSettings(drafts: ProfileDraft[], defaultName: string | undefined): { settings?: WorkspaceSettings; problems: ProfileProblems } {
  const problems: ProfileProblems = {};
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
