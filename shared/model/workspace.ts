import { z } from 'zod';
import { InlineModelSchema } from './modelRef';

export const WORKSPACE_SETTINGS_FILE = 'crewdeck.json';

/** `crewdeck.json` at the workspace root. */
export const WorkspaceSettingsSchema = z.strictObject({
  version: z.literal(1),
  models: z
    .strictObject({
      default: z.string().optional(),
      profiles: z.record(z.string(), InlineModelSchema).default({}),
    })
    .default({ profiles: {} }),
});
export type WorkspaceSettings = z.infer<typeof WorkspaceSettingsSchema>;
