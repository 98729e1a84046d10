import type { McpServerSettings } from '../../../shared/model/mcpSettings';

type StdioServer = Extract<McpServerSettings, { transport: 'stdio' }>;

/**
 * One well-known MCP server that installs from the npm registry: added to `crewdeck.json` as a stdio
 * server run by `npx`, at the version named here (so what trust shows is exactly what runs; a newer
 * version is a new command line, and is held again).
 */
export interface McpCatalogueEntry {
  /** The server's name in `crewdeck.json` (its tools are `mcp:<name>/<tool>`). */
  name: string;
  label: string;
  /** What its tools do, in one sentence. */
  description: string;
  /** What it may do outside Crewdeck's own tool rules, when it may. */
  caution?: string;
  /** The npm package and the version added. */
  npm: { package: string; version: string };
  /** The server entry, for a workspace at `workspacePath` (absolute). */
  server(workspacePath: string): StdioServer;
}

const npx = (pkg: { package: string; version: string }, ...args: string[]): Pick<StdioServer, 'transport' | 'command' | 'args'> => ({
  transport: 'stdio',
  command: 'npx',
  args: ['-y', `${pkg.package}@${pkg.version}`, ...args],
});

/** A file inside the workspace's own data folder (`.crewdeck/`), with the workspace path's separator. */
function dataFile(workspacePath: string, file: string): string {
  const sep = workspacePath.includes('\\') && !workspacePath.includes('/') ? '\\' : '/';
  return `${workspacePath.replace(/[\\/]+$/, '')}${sep}.crewdeck${sep}${file}`;
}

const FILESYSTEM = { package: '@modelcontextprotocol/server-filesystem', version: '2026.8.31' };
const MEMORY = { package: '@modelcontextprotocol/server-memory', version: '2026.8.31' };
const FETCH = { package: 'mcp-fetch-server', version: '1.1.2' };
const THINKING = { package: '@modelcontextprotocol/server-sequential-thinking', version: '2026.8.31' };

export const MCP_CATALOGUE: readonly McpCatalogueEntry[] = [
  {
    name: 'filesystem',
    label: 'Filesystem',
    description: 'Read, write, search and move files, with this workspace folder as its root.',
    caution: 'It writes files itself: the protections of Crewdeck’s own file tools (crewdeck.json, crews, .crewdeck/) do not apply to it.',
    npm: FILESYSTEM,
    // It starts in the workspace (a server's default working folder), so "." is the workspace.
    server: () => ({ ...npx(FILESYSTEM, '.') }),
  },
  {
    name: 'memory',
    label: 'Knowledge graph memory',
    description: 'Entities, relations and observations that last between runs, kept in .crewdeck/mcp-memory.jsonl.',
    npm: MEMORY,
    server: (workspacePath) => ({ ...npx(MEMORY), env: { MEMORY_FILE_PATH: dataFile(workspacePath, 'mcp-memory.jsonl') } }),
  },
  {
    name: 'fetch',
    label: 'Fetch',
    description: 'Fetch a web page as HTML, Markdown, plain text or JSON.',
    caution: 'It reaches the URLs the model chooses by itself, not through Crewdeck’s address policy.',
    npm: FETCH,
    server: () => ({ ...npx(FETCH) }),
  },
  {
    name: 'sequential-thinking',
    label: 'Sequential thinking',
    description: 'A scratchpad tool for working through a problem step by step, revising earlier steps.',
    npm: THINKING,
    server: () => ({ ...npx(THINKING) }),
  },
];

/** Whether a configured server runs this entry's npm package (at any version). */
export function runsPackage(server: McpServerSettings, entry: McpCatalogueEntry): boolean {
  if (server.transport !== 'stdio') return false;
  const pkg = entry.npm.package;
  return (server.args ?? []).some((a) => a === pkg || a.startsWith(`${pkg}@`));
}

/** The entry's name, or `<name>-2`, `-3`… when the workspace already has a server by that name. */
export function freeServerName(entry: McpCatalogueEntry, taken: readonly string[]): string {
  if (!taken.includes(entry.name)) return entry.name;
  let n = 2;
  while (taken.includes(`${entry.name}-${n}`)) n++;
  return `${entry.name}-${n}`;
}
