import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { WORKSPACE_SETTINGS_FILE } from '../../shared/model/workspace';
import { loadWorkspaceSettings } from '../document/loadDocument';
import type { CrewAiImport } from './importProject';
import type { UnmappedItem } from './unmapped';

/** A file the import would write over: a different file is already there. */
export class ImportFileExists extends Error {
  override name = 'ImportFileExists';
  constructor(readonly path: string) {
    super(`${path} already exists with different content`);
  }
}

/**
 * What an import brings into the workspace besides its documents: the data files its documents use
 * (copied to the same relative paths; an identical file already there is left alone), and in
 * crewdeck.json its model profiles and the project's Python tool server (added beside what the file
 * holds; a profile or server of the same name that differs is kept as it is, and listed).
 * `overwrite`: replace differing data files instead of refusing them.
 */
export function writeImportExtras(workspace: string, result: CrewAiImport, overwrite = false): UnmappedItem[] {
  const notes: UnmappedItem[] = [];
  for (const { path, from } of result.files) {
    const target = join(workspace, ...path.split('/'));
    if (existsSync(target)) {
      if (readFileSync(target).equals(readFileSync(from))) continue;
      if (!overwrite) throw new ImportFileExists(path);
    }
    mkdirSync(dirname(target), { recursive: true });
    copyFileSync(from, target);
  }
  const profiles = Object.entries(result.profiles);
  const servers = Object.entries(result.mcpServers);
  if (profiles.length === 0 && servers.length === 0) return notes;
  // An invalid crewdeck.json is refused here (DocumentInvalid names its problems) rather than rewritten.
  loadWorkspaceSettings(workspace);
  const raw = existsSync(join(workspace, WORKSPACE_SETTINGS_FILE)) ? (JSON.parse(readFileSync(join(workspace, WORKSPACE_SETTINGS_FILE), 'utf8')) as Record<string, unknown>) : { version: 1 };
  const models = (raw.models ?? {}) as { profiles?: Record<string, unknown>; default?: string };
  const existing = { ...(models.profiles ?? {}) };
  for (const [name, model] of profiles) {
    if (existing[name] === undefined) existing[name] = model;
    else if (JSON.stringify(existing[name]) !== JSON.stringify(model)) {
      notes.push({ path: WORKSPACE_SETTINGS_FILE, item: `model profile "${name}"`, why: `the workspace already has a profile of this name; it was kept (the project's: ${JSON.stringify(model)})` });
    }
  }
  raw.models = { ...models, profiles: existing };
  if (servers.length > 0) {
    const mcp = (raw.mcp ?? {}) as { servers?: Record<string, unknown> };
    const known = { ...(mcp.servers ?? {}) };
    for (const [name, entry] of servers) {
      if (known[name] === undefined) known[name] = entry;
      else if (JSON.stringify(known[name]) !== JSON.stringify(entry)) notes.push({ path: WORKSPACE_SETTINGS_FILE, item: `MCP server "${name}"`, why: 'the workspace already has a server of this name; it was kept' });
    }
    raw.mcp = { ...mcp, servers: known };
  }
  mkdirSync(workspace, { recursive: true });
  writeFileSync(join(workspace, WORKSPACE_SETTINGS_FILE), `${JSON.stringify(raw, null, 2)}\n`);
  return notes;
}
