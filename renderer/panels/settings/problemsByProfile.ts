import type { Problem } from '../../stores/settingsStore';
import type { DraftField, ProfileDraft } from './profileDraft';

/** Problems of the profile form: per draft key, per field (or the profile as a whole). */
export type ProfileProblems = Record<string, Partial<Record<DraftField | 'profile', string>>>;

const DRAFT_FIELDS = new Set<string>(['name', 'provider', 'model', 'baseUrl', 'apiKeyEnv', 'temperature', 'maxTokens', 'timeoutMs', 'maxRetries', 'nativeTools', 'stream', 'script']);

/** Host problems (`models.profiles.<name>.<field>`) by draft key and field. */
export function problemsByProfile(problems: Problem[], drafts: ProfileDraft[]): ProfileProblems {
  const out: ProfileProblems = {};
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

/** Host problems that belong to no profile of the form (shown above the save bar). */
export function generalProblems(problems: Problem[], drafts: ProfileDraft[]): Problem[] {
  return problems.filter((p) => !drafts.some((d) => p.path.startsWith(`models.profiles.${d.name}`)));
}
