import { readFileSync } from 'node:fs';
import path from 'node:path';
import { McpServerSchema } from '../../shared/model/mcpSettings';
import { serverRunFiles, workspacePathFolders, workspaceRelative } from '../trust/runFiles';

/** A workspace file a configured command runs, for the write refusal. */
export interface CommandRunFile {
  /** Workspace-relative, forward slashes. */
  path: string;
  /** `the MCP server "helper"`. */
  runBy: string;
  /** `crewdeck.json mcp.servers.helper`. */
  where: string;
}

/**
 * The workspace files the MCP servers in `crewdeck.json` run (`runFiles.ts`), read afresh on each call
 * (a write must see the settings as they are now). A `crewdeck.json` that cannot be read names none: no
 * run starts from it either. Entries that do not validate are skipped one by one.
 */
export function commandRunFiles(workspace: string, env: NodeJS.ProcessEnv = process.env): CommandRunFile[] {
  const out: CommandRunFile[] = [];
  for (const [name, raw] of Object.entries(mcpServerEntries(workspace))) {
    const parsed = McpServerSchema.safeParse(raw);
    if (!parsed.success) continue;
    for (const { file } of serverRunFiles(parsed.data, workspace, env)) {
      out.push({ path: workspaceRelative(workspace, file), runBy: `the MCP server "${name}"`, where: `crewdeck.json mcp.servers.${name}` });
    }
  }
  return out;
}

/**
 * Folders a file written into would run: the folders of the files above (a script's own modules sit
 * beside it), but not the workspace itself, and PATH folders inside the workspace.
 */
export function commandFolders(workspace: string, runs: readonly CommandRunFile[] = commandRunFiles(workspace), env: NodeJS.ProcessEnv = process.env): { path: string; why: string }[] {
  const folders = new Map<string, string>();
  for (const run of runs) {
    const folder = path.posix.dirname(run.path);
    if (folder !== '.' && !folders.has(folder)) folders.set(folder, `the folder of ${run.path}, which ${run.runBy} runs`);
  }
  for (const dir of workspacePathFolders(workspace, env)) {
    const rel = workspaceRelative(workspace, dir);
    if (!folders.has(rel)) folders.set(rel, 'a folder on PATH, where commands are looked up');
  }
  return [...folders].map(([p, why]) => ({ path: p, why }));
}

function mcpServerEntries(workspace: string): Record<string, unknown> {
  try {
    const settings = JSON.parse(readFileSync(path.join(workspace, 'crewdeck.json'), 'utf8')) as { mcp?: { servers?: unknown } };
    const servers = settings?.mcp?.servers;
    return servers !== null && typeof servers === 'object' && !Array.isArray(servers) ? (servers as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
