import type { Dirent } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { SEARCH_FILE_EXTENSIONS, type SearchFileType } from '../../shared/model/toolConfig';
import { defineTool, ToolError, toolKnowledge } from './tool';
import { displayPath, resolveInWorkspace } from './workspacePath';
import { numberSetting } from './websiteSearch';

/** A directory search reads at most this many files. */
export const DIRECTORY_MAX_FILES = 200;
const SKIPPED_FOLDERS = new Set(['.git', '.crewdeck', 'node_modules', '.venv', 'venv', '__pycache__']);
/** The file name endings file_search reads (every kind's). */
const READABLE = Object.values(SEARCH_FILE_EXTENSIONS).flat();
const KIND_NAMES: Record<SearchFileType, string> = { csv: 'CSV', pdf: 'PDF', txt: 'text', json: 'JSON', docx: 'Word (.docx)', mdx: 'Markdown/MDX', xml: 'XML', directory: 'folder' };

const QUERY = { type: 'string', minLength: 1, description: 'What to look for (a question or keywords).' };

function fileTypeOf(config: Record<string, unknown>): SearchFileType | undefined {
  return typeof config.fileType === 'string' ? (config.fileType as SearchFileType) : undefined;
}

function shape(config: Record<string, unknown>): { description: string; parameters: Record<string, unknown> } {
  const pinned = typeof config.path === 'string' ? config.path : undefined;
  const type = fileTypeOf(config);
  const what = type === 'directory' ? 'the files of a workspace folder' : type ? `a ${KIND_NAMES[type]} file in the workspace` : 'a workspace file (CSV, PDF, TXT, JSON, DOCX, Markdown/MDX, XML) or every such file in a folder';
  const pathArg = { type: 'string', minLength: 1, description: `Path relative to the workspace of ${type === 'directory' ? 'the folder' : 'the file (or folder)'} to search.` };
  const properties: Record<string, unknown> = pinned ? { query: QUERY } : { query: QUERY, path: pathArg };
  return {
    description: `Search ${pinned ? `"${pinned}"` : what} for the passages that answer a query; returns the best matching passages with their source.`,
    parameters: { type: 'object', properties, required: Object.keys(properties), additionalProperties: false },
  };
}

/**
 * `file_search`: RAG over a workspace file or folder (CrewAI's CSV/PDF/TXT/JSON/DOCX/MDX/XML and
 * Directory search tools). Settings: `path` (pinned), `fileType` (which kind the tool reads), `limit`,
 * `minScore`. Files are read as knowledge sources are, chunked and embedded into the workspace's knowledge
 * store once per content hash; the best chunks come back with their file.
 */
export const fileSearchTool = defineTool({
  name: 'file_search',
  ...shape({}),
  forConfig: shape,
  async execute(args, ctx) {
    const knowledge = toolKnowledge(ctx, 'file_search');
    const type = fileTypeOf(ctx.config);
    const given = typeof ctx.config.path === 'string' ? ctx.config.path : String(args.path);
    const absolute = resolveInWorkspace(ctx.workspace, given);
    const shown = displayPath(ctx.workspace, absolute);
    const stat = await fs.stat(absolute).catch(() => undefined);
    if (!stat) throw new ToolError(`"${shown}" does not exist in the workspace`);
    let files: string[];
    if (stat.isDirectory()) {
      if (type !== undefined && type !== 'directory') throw new ToolError(`"${shown}" is a folder; this tool searches ${KIND_NAMES[type]} files`);
      files = await searchableFiles(absolute, ctx.signal);
      if (files.length === 0) throw new ToolError(`the folder "${shown}" has no file this tool can read (${READABLE.join(', ')})`);
    } else {
      if (type === 'directory') throw new ToolError(`"${shown}" is a file; this tool searches the files of a folder`);
      if (type !== undefined && !SEARCH_FILE_EXTENSIONS[type].some((e) => absolute.toLowerCase().endsWith(e))) {
        throw new ToolError(`"${shown}" is not a ${KIND_NAMES[type]} file (${SEARCH_FILE_EXTENSIONS[type].join(', ')}); this tool searches ${KIND_NAMES[type]} files`);
      }
      files = [absolute];
    }
    const paths = files.map((file) => displayPath(ctx.workspace, file));
    const settings = { limit: numberSetting(ctx.config.limit), minScore: numberSetting(ctx.config.minScore) };
    const { found, skipped } = await knowledge.searchFiles(paths, String(args.query), settings, ctx.signal);
    return skipped.length ? `${found}\n\n[not searched: ${skipped.slice(0, 10).join('; ')}]` : found;
  },
});

/** The readable files under a folder (depth first, sorted; skipping .git, .crewdeck, node_modules, virtualenvs), at most DIRECTORY_MAX_FILES. */
async function searchableFiles(dir: string, signal: AbortSignal, out: string[] = []): Promise<string[]> {
  signal.throwIfAborted();
  let entries: Dirent[];
  try {
    entries = await fs.readdir(dir, { withFileTypes: true });
  } catch {
    return out;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (out.length >= DIRECTORY_MAX_FILES) break;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIPPED_FOLDERS.has(entry.name)) await searchableFiles(full, signal, out);
    } else if (entry.isFile() && READABLE.includes(path.extname(entry.name).toLowerCase())) {
      out.push(full);
    }
  }
  return out;
}
