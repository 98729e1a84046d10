import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createHostService } from '../../runtime/host/createHostService';
import type { HostService } from '../../runtime/host/hostService';
import { BUILTIN_TOOLS } from '../../shared/model/tool';
import { trustWorkspace } from '../support/trustWorkspace';

const FS_SERVER = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-filesystem/dist/index.js');
let workspace: string;
let host: HostService;

beforeEach(() => {
  workspace = mkdtempSync(join(tmpdir(), 'crewdeck-host-tools-'));
  host = createHostService({ workspace, transport: 'websocket', env: {} });
});

afterEach(async () => {
  await host.close();
  rmSync(workspace, { recursive: true, force: true });
});

it('tools.list gives the built-ins and each MCP server\'s tools with schemas; a broken server is listed with its error', async () => {
  const settings = {
    version: 1,
    mcp: {
      servers: {
        fs: { transport: 'stdio', command: process.execPath, args: [FS_SERVER, workspace] },
        broken: { transport: 'stdio', command: join(workspace, 'missing-binary') },
      },
    },
  };
  writeFileSync(join(workspace, 'crewdeck.json'), JSON.stringify(settings));
  trustWorkspace(workspace); // listing starts the stdio servers, which wait for trust
  const result = await host.handle('tools.list', {});
  if (!result.ok) throw new Error(result.error.message);
  const { tools, servers } = result.response as { tools: { name: string; source: string; server?: string; parameters: Record<string, unknown> }[]; servers: { name: string; toolCount: number; error?: string }[] };
  expect(tools.filter((t) => t.source === 'builtin').map((t) => t.name)).toEqual([...BUILTIN_TOOLS]);
  const list = tools.find((t) => t.name === 'mcp:fs/list_directory');
  expect(list).toMatchObject({ source: 'mcp', server: 'fs', parameters: { type: 'object', required: ['path'] } });
  expect(servers.find((s) => s.name === 'fs')?.toolCount).toBe(tools.filter((t) => t.server === 'fs').length);
  expect(servers.find((s) => s.name === 'broken')).toMatchObject({ toolCount: 0, error: expect.stringMatching(/MCP server "broken" could not be started/) });
}, 60_000);
