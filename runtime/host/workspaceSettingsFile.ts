import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { WorkspaceSettingsSchema, WORKSPACE_SETTINGS_FILE, type WorkspaceSettings } from '../../shared/model/workspace';
import { problemsFromZod, type Problem } from '../../shared/model/problems';
import { loadWorkspaceSettings } from '../document/loadDocument';
import { DocumentInvalid } from '../errors';

const EMPTY: WorkspaceSettings = { version: 1, models: { profiles: {} } };

/** `crewdeck.json`: read (a broken file is reported, not replaced) and written only when valid. */
export class WorkspaceSettingsFile {
  constructor(private readonly workspace: string) {}

  read(): { settings: WorkspaceSettings; problems: Problem[] } {
    try {
      return { settings: loadWorkspaceSettings(this.workspace) ?? EMPTY, problems: [] };
    } catch (error) {
      if (error instanceof DocumentInvalid) return { settings: EMPTY, problems: error.problems };
      throw error;
    }
  }

  /** Writes the settings when they validate; otherwise returns the problems and leaves the file alone. */
  save(value: unknown): Problem[] {
    const parsed = WorkspaceSettingsSchema.safeParse(value);
    if (!parsed.success) return problemsFromZod(parsed.error);
    const defaultProfile = parsed.data.models.default;
    if (defaultProfile !== undefined && !(defaultProfile in parsed.data.models.profiles)) {
      return [{ path: 'models.default', message: `no profile named "${defaultProfile}"` }];
    }
    const file = join(this.workspace, WORKSPACE_SETTINGS_FILE);
    const temp = `${file}.${process.pid}.tmp`;
    writeFileSync(temp, `${JSON.stringify(parsed.data, null, 2)}\n`);
    renameSync(temp, file);
    return [];
  }

  /** Environment variables the profiles read keys from (and OPENAI_API_KEY, the default; CREWDECK_API_KEY with a team server). */
  keyNames(settings: WorkspaceSettings): string[] {
    const names = new Set(['OPENAI_API_KEY']);
    for (const profile of Object.values(settings.models.profiles)) if (profile.apiKeyEnv) names.add(profile.apiKeyEnv);
    // The personal key of the team server, kept like a model key.
    if (settings.team) names.add('CREWDECK_API_KEY');
    return [...names].sort();
  }
}
