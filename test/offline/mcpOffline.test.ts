import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RuntimeEvent } from '../../shared/events';
import { WorkspaceSettingsSchema } from '../../shared/model/workspace';
import { Recording } from '../../runtime/offline/recording';
import { createRuntime } from '../../runtime/runtime';
import { crew, ofType, runCrew, scripted, tempWorkspace } from '../support/crewHarness';
import { trustWorkspace } from '../support/trustWorkspace';

const require = createRequire(import.meta.url);
const FS_SERVER = require.resolve('@modelcontextprotocol/server-filesystem/dist/index.js');

let ws: ReturnType<typeof tempWorkspace> | undefined;
afterEach(() => ws?.remove());

describe('offline re-run with MCP tools', () => {
  it('answers MCP tool calls from the recording and starts no server', async () => {
    ws = tempWorkspace('crewdeck-mcp-offline-');
    const root = join(ws.dir, 'shared');
    mkdirSync(root, { recursive: true });
    writeFileSync(join(root, 'notes.txt'), 'hello');
    const doc = crew({
      agents: [
        {
          id: 'clerk',
          role: 'Clerk',
          goal: 'use the tools',
          tools: [{ tool: 'mcp:fs/list_directory' }],
          llm: scripted({ rules: [{ when: { lastRole: 'user' }, reply: { toolCalls: [{ name: 'mcp:fs/list_directory', arguments: { path: root } }] } }, { when: { lastRole: 'tool' }, reply: 'Listed.' }] }),
        },
      ],
      tasks: [{ id: 't1', description: 'List', expectedOutput: 'a listing', agentId: 'clerk' }],
    });
    const settings = WorkspaceSettingsSchema.parse({ version: 1, mcp: { servers: { fs: { transport: 'stdio', command: process.execPath, args: [FS_SERVER, root] } } } });
    trustWorkspace(ws.dir, settings);
    const { result, events: recorded } = await runCrew(doc, { workspace: ws, settings });
    expect(result.status).toBe('completed');
    const listing = ofType(recorded, 'tool.completed')[0]!.result;
    expect(listing).toContain('[FILE] notes.txt');

    // Offline, with a server command that cannot start: the recording answers.
    const broken = WorkspaceSettingsSchema.parse({ version: 1, mcp: { servers: { fs: { transport: 'stdio', command: join(ws.dir, 'no-such-command') } } } });
    const events: RuntimeEvent[] = [];
    const offline = await createRuntime({ workspace: ws.dir, store: ws.store, settings: broken, offline: Recording.fromStore(ws.store, result.runId) }).runCrew(doc, { onEvent: (e) => events.push(e) });
    expect(offline.status).toBe('completed');
    expect(offline.output).toBe('Listed.');
    expect(ofType(events, 'tool.completed').map((e) => [e.tool, e.result])).toEqual([['mcp:fs/list_directory', listing]]);
  }, 60_000);
});
