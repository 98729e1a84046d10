import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { WorkspaceSettingsSchema, type WorkspaceSettings } from '../../shared/model/workspace';
import { FlowDocumentSchema } from '../../shared/model/flow';
import type { RuntimeEvent } from '../../shared/events';
import { createRuntime } from '../../runtime/runtime';
import { isBadInput } from '../../runtime/badInput';
import { ToolUnavailable } from '../../runtime/crew/roster';
import { McpServers } from '../../runtime/mcp/mcpServers';
import { createBuiltinRegistry } from '../../runtime/tools/registry';
import { crew, ofType, runCrew, scripted, tempWorkspace } from '../support/crewHarness';
import { trustWorkspace } from '../support/trustWorkspace';

const require = createRequire(import.meta.url);
const FS_SERVER = require.resolve('@modelcontextprotocol/server-filesystem/dist/index.js');
const FLAKY_SERVER = join(dirname(fileURLToPath(import.meta.url)), '../fixtures/mcp/flakyServer.mjs');

const cleanup: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanup.splice(0)) c();
});

let latest: string | undefined;
function workspace() {
  const ws = tempWorkspace('crewdeck-mcp-');
  cleanup.push(() => ws.remove());
  latest = ws.dir;
  return ws;
}

/** The settings, trusted for the test's workspace (stdio servers wait for trust: test/security/workspaceTrust.test.ts). */
function settings(servers: Record<string, unknown>): WorkspaceSettings {
  const parsed = WorkspaceSettingsSchema.parse({ version: 1, mcp: { servers } });
  if (latest) trustWorkspace(latest, parsed);
  return parsed;
}

const fsServer = (root: string) => ({ transport: 'stdio', command: process.execPath, args: [FS_SERVER, root] });
const flakyServer = (extra: Record<string, unknown> = {}) => ({ transport: 'stdio', command: process.execPath, args: [FLAKY_SERVER], ...extra });

function oneAgentCrew(tool: string, calls: { name: string; arguments: Record<string, unknown> }[], tasks = 1) {
  return crew({
    agents: [
      {
        id: 'clerk',
        role: 'Clerk',
        goal: 'use the tools',
        tools: [{ tool }],
        llm: scripted({
          rules: [
            ...calls.map((call, i) => ({ when: { lastRole: 'user' as const }, reply: { toolCalls: [call] }, ...(i === 0 ? {} : {}) })),
            { when: { lastRole: 'tool' as const }, reply: 'Done.' },
          ],
        }),
      },
    ],
    tasks: Array.from({ length: tasks }, (_, i) => ({ id: `t${i + 1}`, description: `Step ${i + 1}`, expectedOutput: 'a report', agentId: 'clerk' })),
  });
}

describe('MCP tool servers', () => {
  it('lists a directory through @modelcontextprotocol/server-filesystem over stdio, traced like any tool', async () => {
    const ws = workspace();
    const root = join(ws.dir, 'shared');
    mkdirSync(join(root, 'docs'), { recursive: true });
    writeFileSync(join(root, 'notes.txt'), 'hello');
    const doc = oneAgentCrew('mcp:fs/list_directory', [{ name: 'mcp:fs/list_directory', arguments: { path: root } }], 2);

    const { result, events } = await runCrew(doc, { workspace: ws, settings: settings({ fs: fsServer(root) }) });

    expect(result.status).toBe('completed');
    const started = ofType(events, 'tool.started');
    const completed = ofType(events, 'tool.completed');
    expect(started.map((e) => e.tool)).toEqual(['mcp:fs/list_directory', 'mcp:fs/list_directory']);
    expect(started[0]!.args).toEqual({ path: root });
    // Both tasks used the one server process; each call is a real call (read-only tools are cacheable,
    // but the task runner gives each task its own tools). The listing is the server's own format.
    expect(completed[0]!.result).toContain('[FILE] notes.txt');
    expect(completed[0]!.result).toContain('[DIR] docs');
    const tool = ofType(events, 'llm.started').find((e) => e.purpose === 'agent')?.tools?.find((t) => t.name === 'mcp:fs/list_directory');
    expect(tool?.parameters).toMatchObject({ type: 'object', properties: { path: { type: 'string' } } });
    // The observation reached the model.
    const secondCall = ofType(events, 'llm.started').filter((e) => e.purpose === 'agent')[1];
    expect(secondCall!.messages.at(-1)?.content).toContain('[FILE] notes.txt');
  }, 60_000);

  it('a server that crashes mid-call gives the agent an observation naming the server, not a hung run', async () => {
    const ws = workspace();
    const doc = oneAgentCrew('mcp:flaky/crash', [{ name: 'mcp:flaky/crash', arguments: {} }]);
    const { result, events } = await runCrew(doc, { workspace: ws, settings: settings({ flaky: flakyServer() }) });
    expect(result.status).toBe('completed');
    const failed = ofType(events, 'tool.failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]!.tool).toBe('mcp:flaky/crash');
    expect(failed[0]!.error).toMatch(/MCP server "flaky" stopped during the call of "crash"/);
    const observation = ofType(events, 'llm.started').filter((e) => e.purpose === 'agent')[1]!.messages.at(-1)?.content;
    expect(observation).toMatch(/Error using tool mcp:flaky\/crash: MCP server "flaky" stopped/);
  }, 60_000);

  it('later calls to a crashed server fail at once with a clear message', async () => {
    const ws = workspace();
    const doc = crew({
      agents: [
        {
          id: 'clerk',
          role: 'Clerk',
          goal: 'use the tools',
          tools: [{ tool: 'mcp:flaky/crash' }, { tool: 'mcp:flaky/echo' }],
          llm: scripted({
            sequence: [
              { toolCalls: [{ name: 'mcp:flaky/crash', arguments: {} }] },
              { toolCalls: [{ name: 'mcp:flaky/echo', arguments: { text: 'hi' } }] },
              'Done.',
            ],
          }),
        },
      ],
      tasks: [{ id: 't1', description: 'Go', expectedOutput: 'a report', agentId: 'clerk' }],
    });
    const { result, events } = await runCrew(doc, { workspace: ws, settings: settings({ flaky: flakyServer() }) });
    expect(result.status).toBe('completed');
    const failed = ofType(events, 'tool.failed');
    expect(failed.map((e) => e.tool)).toEqual(['mcp:flaky/crash', 'mcp:flaky/echo']);
    expect(failed[1]!.error).toMatch(/MCP server "flaky" is not running \(the server exited or closed the connection; its last message: flaky server: crashing on purpose\)/);
  }, 60_000);

  it('a call that takes longer than the timeout fails with an observation', async () => {
    const ws = workspace();
    const doc = oneAgentCrew('mcp:flaky/hang', [{ name: 'mcp:flaky/hang', arguments: {} }]);
    const { result, events } = await runCrew(doc, { workspace: ws, settings: settings({ flaky: flakyServer({ timeoutMs: 500 }) }) });
    expect(result.status).toBe('completed');
    expect(ofType(events, 'tool.failed')[0]!.error).toBe('MCP server "flaky" did not answer the call of "hang" within 500 ms');
  }, 60_000);

  it('an unknown MCP tool is bad input that lists the server\'s tools; an unknown server lists the configured ones', async () => {
    const ws = workspace();
    const s = settings({ flaky: flakyServer() });
    const unknownTool = oneAgentCrew('mcp:flaky/nope', []);
    const error = await runCrew(unknownTool, { workspace: ws, settings: s }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolUnavailable);
    expect(isBadInput(error)).toBe(true);
    expect((error as Error).message).toBe(
      'agents.0.tools.0.tool: tool "mcp:flaky/nope" is not available; MCP server "flaky" has the tools: echo, crash, hang, picture, env, pid',
    );
    const unknownServer = oneAgentCrew('mcp:github/search', []);
    const error2 = await runCrew(unknownServer, { workspace: ws, settings: s }).catch((e: unknown) => e);
    expect((error2 as Error).message).toBe(
      'agents.0.tools.0.tool: tool "mcp:github/search" is not available; no MCP server named "github" is configured in this workspace (configured: flaky)',
    );
  }, 60_000);

  it('a server that cannot start is named in the bad-input error', async () => {
    const ws = workspace();
    const doc = oneAgentCrew('mcp:broken/x', []);
    const s = settings({ broken: { transport: 'stdio', command: join(ws.dir, 'no-such-server') } });
    const error = await runCrew(doc, { workspace: ws, settings: s }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolUnavailable);
    expect((error as Error).message).toMatch(/tool "mcp:broken\/x" is not available; MCP server "broken" could not be started: .*ENOENT/);
  }, 60_000);

  it('summarises non-text content, expands ${VAR} in env and cuts the secret out of results', async () => {
    const ws = workspace();
    const s = settings({ flaky: flakyServer({ env: { FLAKY_TOKEN: '${TEST_FLAKY_TOKEN}' } }) });
    const servers = new McpServers(s.mcp, { workspace: ws.dir, env: { TEST_FLAKY_TOKEN: 'abcdefgh' } });
    const session = servers.session();
    try {
      const registry = await session.registryFor(createBuiltinRegistry(), ['flaky']);
      const ctx = { workspace: ws.dir, signal: new AbortController().signal, agentRole: 'x', config: {} };
      expect(await registry.get('mcp:flaky/picture')!.execute({}, ctx)).toBe('here is a picture\n[image image/png, 3 KB — not shown]');
      expect(await registry.get('mcp:flaky/env')!.execute({}, ctx)).toBe('token length 8; token ***');
      expect(registry.get('mcp:flaky/echo')!.cacheable).toBe(false);
    } finally {
      await session.close();
    }
    const missing = new McpServers(s.mcp, { workspace: ws.dir, env: {} }).session();
    await expect(missing.registryFor(createBuiltinRegistry(), ['flaky'])).rejects.toThrow(
      'mcp.servers.flaky.env.FLAKY_TOKEN uses the environment variable TEST_FLAKY_TOKEN, which is not set',
    );
    await missing.close();
  }, 60_000);

  it('stops the server when the run ends, and when it is cancelled mid-call', async () => {
    const alive = (pid: number) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    const pidOf = (events: RuntimeEvent[]) => Number(ofType(events, 'tool.completed').find((e) => e.tool === 'mcp:flaky/pid')?.result);
    const ws = workspace();
    const s = settings({ flaky: flakyServer() });
    const done = await runCrew(oneAgentCrew('mcp:flaky/pid', [{ name: 'mcp:flaky/pid', arguments: {} }]), { workspace: ws, settings: s });
    const pid = pidOf(done.events);
    expect(pid).toBeGreaterThan(0);
    expect(alive(pid)).toBe(false);

    const doc = crew({
      agents: [
        {
          id: 'clerk',
          role: 'Clerk',
          goal: 'wait',
          tools: [{ tool: 'mcp:flaky/pid' }, { tool: 'mcp:flaky/hang' }],
          llm: scripted({ sequence: [{ toolCalls: [{ name: 'mcp:flaky/pid', arguments: {} }] }, { toolCalls: [{ name: 'mcp:flaky/hang', arguments: {} }] }, 'Done.'] }),
        },
      ],
      tasks: [{ id: 't1', description: 'Wait', expectedOutput: 'x', agentId: 'clerk' }],
    });
    const controller = new AbortController();
    const events: RuntimeEvent[] = [];
    const runtime = createRuntime({ workspace: ws.dir, store: ws.store, settings: s });
    const result = await runtime.runCrew(doc, {
      signal: controller.signal,
      onEvent: (e) => {
        events.push(e);
        if (e.type === 'tool.started' && e.tool === 'mcp:flaky/hang') setTimeout(() => controller.abort(), 50);
      },
    });
    expect(result.status).toBe('cancelled');
    expect(alive(pidOf(events))).toBe(false);
  }, 60_000);

  it('a flow\'s agent and crew-file methods get the MCP tools they name (one server for the whole flow)', async () => {
    const ws = workspace();
    const clerk = (text: string) => ({
      role: 'Clerk',
      goal: 'echo',
      tools: [{ tool: 'mcp:flaky/echo' }],
      llm: scripted({ rules: [{ when: { lastRole: 'user' as const }, reply: { toolCalls: [{ name: 'mcp:flaky/echo', arguments: { text } }] } }, { when: { lastRole: 'tool' as const }, reply: 'Done.' }] }, text),
    });
    writeFileSync(
      join(ws.dir, 'echo.crew.json'),
      JSON.stringify({ kind: 'crew', version: 1, id: 'echo', name: 'Echo', agents: [{ id: 'c', ...clerk('from crew') }], tasks: [{ id: 't', description: 'Echo', expectedOutput: 'x', agentId: 'c' }] }),
    );
    const flow = FlowDocumentSchema.parse({
      kind: 'flow',
      version: 1,
      id: 'f',
      name: 'MCP flow',
      methods: [
        { id: 'a', name: 'a', trigger: { start: true }, body: { type: 'agent', agent: clerk('from agent'), prompt: 'Echo something' } },
        { id: 'b', name: 'b', trigger: { listen: 'a' }, body: { type: 'crew', file: 'echo.crew.json' } },
      ],
    });
    const events: RuntimeEvent[] = [];
    const runtime = createRuntime({ workspace: ws.dir, store: ws.store, settings: settings({ flaky: flakyServer() }) });
    const result = await runtime.runFlow(flow, { onEvent: (e) => events.push(e) });
    expect(result.status).toBe('completed');
    expect(ofType(events, 'tool.completed').map((e) => e.result)).toEqual(['echo: from agent', 'echo: from crew']);
  }, 60_000);

  it('rejects server names that cannot appear in mcp:<server>/<tool>', () => {
    const parsed = WorkspaceSettingsSchema.safeParse({ version: 1, mcp: { servers: { 'my server': { transport: 'http', url: 'http://localhost:1/mcp' } } } });
    expect(parsed.success).toBe(false);
    expect(JSON.stringify(parsed.error?.issues)).toContain('an MCP server name may only use letters, digits');
  });
});

describe('MCP over streamable HTTP', () => {
  it('connects with headers expanded from the environment, lists and calls tools', async () => {
    const { createServer } = await import('node:http');
    const { McpServer } = await import('@modelcontextprotocol/sdk/server/mcp.js');
    const { StreamableHTTPServerTransport } = await import('@modelcontextprotocol/sdk/server/streamableHttp.js');
    const { z } = await import('zod');
    const seen: (string | undefined)[] = [];
    const http = createServer(async (req, res) => {
      seen.push(req.headers['x-api-token'] as string | undefined);
      // Stateless: a fresh server and transport per request.
      const server = new McpServer({ name: 'remote', version: '1.0.0' });
      server.registerTool('add', { description: 'Adds two numbers.', inputSchema: { a: z.number(), b: z.number() }, annotations: { readOnlyHint: true } }, async ({ a, b }) => ({
        content: [{ type: 'text', text: String(a + b) }],
      }));
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      res.on('close', () => void transport.close());
      await server.connect(transport);
      await transport.handleRequest(req, res);
    });
    await new Promise<void>((done) => http.listen(0, '127.0.0.1', done));
    const port = (http.address() as { port: number }).port;
    try {
      const ws = workspace();
      const s = settings({ remote: { transport: 'http', url: `http://127.0.0.1:${port}/mcp`, headers: { 'x-api-token': 'Token ${REMOTE_TOKEN}' } } });
      const session = new McpServers(s.mcp, { workspace: ws.dir, env: { REMOTE_TOKEN: 'tok-123456' } }).session();
      try {
        const registry = await session.registryFor(createBuiltinRegistry(), ['remote']);
        const add = registry.get('mcp:remote/add')!;
        expect(add.cacheable).toBe(true);
        expect(add.parameters).toMatchObject({ type: 'object', required: ['a', 'b'] });
        expect(await add.execute({ a: 2, b: 3 }, { workspace: ws.dir, signal: new AbortController().signal, agentRole: 'x', config: {} })).toBe('5');
      } finally {
        await session.close();
      }
      expect(seen.length).toBeGreaterThan(0);
      expect(new Set(seen)).toEqual(new Set(['Token tok-123456']));
    } finally {
      await new Promise((done) => http.close(done));
    }
  }, 60_000);
});
