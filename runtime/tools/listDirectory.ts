import type { Dirent } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { defineTool, ToolError } from './tool';
import { displayPath, resolveInWorkspace } from './workspacePath';

export const LIST_DIRECTORY_MAX_ENTRIES = 1000;
/** Folders a recursive listing does not enter (they are still listed). */
const SKIPPED_WHEN_RECURSIVE = new Set(['.crewdeck', 'node_modules', '.git']);

export const listDirectoryTool = defineTool({
  name: 'list_directory',
  description:
    'List the files and folders in a workspace folder, one per line, folders ending with "/". ' +
    'With "recursive" true, sub-folders are listed too (skipping .git, node_modules and .crewdeck).',
  parameters: {
    type: 'object',
    properties: {
      path: { type: 'string', description: 'Folder relative to the workspace (default ".", the workspace itself).' },
      recursive: { type: 'boolean', description: 'Also list the contents of sub-folders (default false).' },
    },
    required: [],
    additionalProperties: false,
  },
  forConfig(config) {
    const properties: Record<string, unknown> = {};
    const base = this.parameters.properties as Record<string, unknown>;
    if (typeof config.path !== 'string') properties.path = base.path;
    if (typeof config.recursive !== 'boolean') properties.recursive = base.recursive;
    const where = typeof config.path === 'string' ? `the workspace folder "${config.path}"` : 'a workspace folder';
    const how = config.recursive === true ? ', sub-folders included (skipping .git, node_modules and .crewdeck)' : config.recursive === false ? '' : '. With "recursive" true, sub-folders are listed too (skipping .git, node_modules and .crewdeck)';
    return {
      description: `List the files and folders in ${where}, one per line, folders ending with "/"${how}.`,
      parameters: { type: 'object', properties, required: [], additionalProperties: false },
    };
  },
  async execute(args, ctx) {
    // Settings pin the folder (CrewAI's DirectoryReadTool(directory=…)) and whether sub-folders are listed.
    const pinned = typeof ctx.config.path === 'string' ? ctx.config.path : undefined;
    const recursive = typeof ctx.config.recursive === 'boolean' ? ctx.config.recursive : args.recursive === true;
    const dir = resolveInWorkspace(ctx.workspace, pinned ?? (args.path as string | undefined) ?? '.');
    const shown = displayPath(ctx.workspace, dir);
    const stat = await fs.stat(dir).catch(() => undefined);
    if (!stat) throw new ToolError(`folder "${shown}" does not exist`);
    if (!stat.isDirectory()) throw new ToolError(`"${shown}" is a file, not a folder; use read_file to read it`);

    const entries: string[] = [];
    const complete = await walk(dir, '', recursive, entries, ctx.signal);
    if (entries.length === 0) return `(folder "${shown}" is empty)`;
    const listing = entries.join('\n');
    return complete ? listing : `${listing}\n[listing stopped at ${LIST_DIRECTORY_MAX_ENTRIES} entries]`;
  },
});

/** Depth-first, siblings sorted. Returns false when the entry cap was hit. */
async function walk(dir: string, prefix: string, recursive: boolean, out: string[], signal: AbortSignal): Promise<boolean> {
  signal.throwIfAborted();
  let children: Dirent[];
  try {
    children = await fs.readdir(dir, { withFileTypes: true });
  } catch (error) {
    if (prefix === '') throw new ToolError(`cannot list "${dir}": ${(error as Error).message}`);
    return true; // an unreadable sub-folder is listed but not entered
  }
  children.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const child of children) {
    if (out.length >= LIST_DIRECTORY_MAX_ENTRIES) return false;
    const isDir = child.isDirectory();
    const rel = prefix + child.name + (isDir ? '/' : '');
    out.push(rel);
    if (isDir && recursive && !SKIPPED_WHEN_RECURSIVE.has(child.name)) {
      if (!(await walk(path.join(dir, child.name), rel, recursive, out, signal))) return false;
    }
  }
  return true;
}
