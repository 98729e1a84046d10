import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CrewDocument } from '../../shared/model/crew';
import { WorkspaceSettingsSchema } from '../../shared/model/workspace';
import type { CrewAiImport } from '../../runtime/crewai/importProject';
import type { RuntimeOptions } from '../../runtime/runtime';
import { runCrew, tempWorkspace } from './crewHarness';
import { trustWorkspace } from './trustWorkspace';

/**
 * Runs a crew an import produced the way `crewdeck import` leaves it: in a workspace whose
 * crewdeck.json holds the import's model profiles and Python tool server (trusted, as `crewdeck trust`
 * would), every model answered by the scripted profile `offline` (`--model offline`).
 */
export async function runImportedCrew(
  result: Pick<CrewAiImport, 'profiles' | 'mcpServers'>,
  doc: CrewDocument,
  offline: Record<string, unknown>,
  options: { inputs?: Record<string, string>; human?: RuntimeOptions['human'] } = {},
) {
  const ws = tempWorkspace('crewdeck-imported-');
  const settings = WorkspaceSettingsSchema.parse({
    version: 1,
    models: { profiles: { ...result.profiles, offline } },
    ...(Object.keys(result.mcpServers).length > 0 ? { mcp: { servers: result.mcpServers } } : {}),
  });
  writeFileSync(join(ws.dir, 'crewdeck.json'), JSON.stringify(settings));
  trustWorkspace(ws.dir, settings);
  try {
    return await runCrew(doc, { workspace: ws, settings, forceProfile: 'offline', ...options });
  } finally {
    ws.remove();
  }
}
