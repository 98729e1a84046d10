import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FlowDocumentSchema } from '../../shared/model/flow';
import type { McpSettings } from '../../shared/model/mcpSettings';
import { createRuntime } from '../../runtime/runtime';
import { McpServers } from '../../runtime/mcp/mcpServers';
import { mcpHeldPart } from '../../runtime/trust/heldParts';
import { WorkspaceUntrusted } from '../../runtime/trust/trustErrors';
import { WorkspaceTrust, workspaceHeldParts } from '../../runtime/trust/workspaceTrust';
import { TrustStore } from '../../runtime/trust/trustStore';
import { fetchingCrew, startIntranetServer, type IntranetServer } from '../support/intranetServer';

/**
 * Review findings N2, N3, N5: a crew run once per for_each item was never checked for what it lets the
 * network reach; a crew file checked when the run opened was read again, unchecked, when its method ran
 * (an earlier method could rewrite it); an MCP server over HTTP on a loopback, private or metadata host
 * was not held at all. Only a 127.0.0.1 server is reached here (169.254.169.254 is an address string).
 */

let dir: string;
let configDir: string;
const savedConfigDir = process.env.CREWDECK_CONFIG_DIR;
const seen: string[] = [];
let intranet: IntranetServer;
let base: string;
let host: string;

beforeAll(async () => {
  intranet = await startIntranetServer(seen, 'INTRANET-SECRET');
  ({ base, host } = intranet);
});
afterAll(() => intranet.close());
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'crewdeck-flowreach-'));
  configDir = mkdtempSync(join(tmpdir(), 'crewdeck-flowreach-config-'));
  process.env.CREWDECK_CONFIG_DIR = configDir;
  seen.length = 0;
});
afterEach(() => {
  process.env.CREWDECK_CONFIG_DIR = savedConfigDir;
  rmSync(dir, { recursive: true, force: true });
  rmSync(configDir, { recursive: true, force: true });
});

function write(name: string, value: unknown): string {
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(value));
  return file;
}

function forEachFlow() {
  return FlowDocumentSchema.parse({
    kind: 'flow',
    version: 1,
    id: 'f',
    name: 'F',
    state: { initial: { xs: ['one'] } },
    methods: [{ id: 'm', name: 'm', trigger: { start: true }, body: { type: 'for_each', items: '{state.xs}', concurrency: 1, into: 'out', body: { type: 'crew', file: 'inner.crew.json' } } }],
  });
}

async function refusal(run: Promise<unknown>): Promise<WorkspaceUntrusted> {
  const error = await run.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WorkspaceUntrusted);
  return error as WorkspaceUntrusted;
}

describe('a crew a flow runs is checked for network reach, also per for_each item and when it loads', () => {
  it('N2: a for_each whose items run a crew with a loopback allowedHosts entry is refused before the run opens; runs once trusted', async () => {
    write('inner.crew.json', fetchingCrew(`${base}/admin`, [host]));
    const flow = forEachFlow();
    const file = write('f.flow.json', flow);
    const error = await refusal(createRuntime({ workspace: dir }).runFlow(flow, { documentPath: file }));
    expect(error.message).toContain(`inner.crew.json agents.0.tools.0.config.allowedHosts.0 lets http_request reach ${host} (a loopback address)`);
    expect(seen).toEqual([]);

    new WorkspaceTrust(dir).grant(undefined);
    const result = await createRuntime({ workspace: dir }).runFlow(flow, { documentPath: file });
    expect(result.status).toBe('completed');
    expect(seen).toEqual(['GET /admin']);
  });

  it('N2: a for_each crew with a knowledge URL on a loopback host is refused before the run opens; nothing is fetched', async () => {
    write('inner.crew.json', {
      kind: 'crew',
      version: 1,
      id: 'read',
      name: 'Read',
      knowledge: [{ type: 'url', url: `${base}/wiki` }],
      agents: [{ id: 'a', role: 'Reader', goal: 'read', llm: { provider: 'scripted', model: 'r', script: { rules: [{ when: { lastRole: 'user' }, reply: 'read' }] } } }],
      tasks: [{ id: 't', description: 'Read it', expectedOutput: 'a note', agentId: 'a' }],
    });
    const flow = forEachFlow();
    const error = await refusal(createRuntime({ workspace: dir }).runFlow(flow, { documentPath: write('f.flow.json', flow) }));
    expect(error.message).toContain(`inner.crew.json knowledge.0.url fetches ${base}/wiki (a loopback address) as knowledge`);
    expect(seen).toEqual([]);
  });

  it('N3: a crew file an earlier method rewrites after the run opened is checked again when its method loads it: the method fails, nothing is fetched', async () => {
    write('b.crew.json', fetchingCrew('https://example.com/', ['example.com']));
    const evil = JSON.stringify(fetchingCrew(`${base}/admin`, [host]));
    const flow = FlowDocumentSchema.parse({
      kind: 'flow',
      version: 1,
      id: 'f',
      name: 'F',
      methods: [
        {
          id: 'w',
          name: 'w',
          trigger: { start: true },
          body: {
            type: 'agent',
            prompt: 'go',
            agent: {
              role: 'W',
              goal: 'w',
              llm: {
                provider: 'scripted',
                model: 'w',
                script: {
                  rules: [
                    { when: { lastRole: 'user' }, reply: { toolCalls: [{ name: 'write_file', arguments: { path: 'b.crew.json', content: evil } }] } },
                    { when: { lastRole: 'tool' }, reply: 'written' },
                  ],
                },
              },
              tools: [{ tool: 'write_file', config: { allowDocumentWrites: true } }],
            },
          },
        },
        { id: 'c', name: 'c', trigger: { listen: 'w' }, body: { type: 'crew', file: 'b.crew.json' } },
      ],
    });
    const file = write('f.flow.json', flow);
    // Trusted as it is on disk now (nothing the benign crew holds): the rewritten crew was never trusted.
    new WorkspaceTrust(dir).grant(undefined);
    const events: { type: string; error?: { message?: string } }[] = [];
    const result = await createRuntime({ workspace: dir }).runFlow(flow, { documentPath: file, onEvent: (e) => events.push(e as never) });
    expect(result.status).toBe('failed');
    expect(seen).toEqual([]);
    const messages = JSON.stringify(events);
    expect(messages).toContain(`b.crew.json agents.0.tools.0.config.allowedHosts.0 lets http_request reach ${host} (a loopback address)`);
  });
});

describe('N5: an MCP server over HTTP on a local host is held', () => {
  it('a loopback or metadata URL with no ${VAR} is a network part over its URL; a public one is not held', () => {
    expect(mcpHeldPart('x', { transport: 'http', url: `${base}/mcp` } as never)).toMatchObject({
      kind: 'network',
      where: 'crewdeck.json mcp.servers.x.url',
      summary: `sends MCP requests to ${base}/mcp (a loopback address)`,
    });
    expect(mcpHeldPart('m', { transport: 'http', url: 'http://169.254.169.254/latest' } as never)).toMatchObject({ kind: 'network', summary: expect.stringContaining('(a metadata address)') });
    expect(mcpHeldPart('p', { transport: 'http', url: 'https://mcp.example.com/mcp' } as never)).toBeUndefined();
    const settings = { version: 1, models: { profiles: {} }, mcp: { servers: { x: { transport: 'http', url: `${base}/mcp` } } } };
    expect(workspaceHeldParts(dir, settings as never).map((p) => p.where)).toContain('crewdeck.json mcp.servers.x.url');
  });

  it('connecting to it is refused until trusted: the server sees no request', async () => {
    const mcp = { servers: { x: { transport: 'http', url: `${base}/mcp` } } } as unknown as McpSettings;
    const session = new McpServers(mcp, { workspace: dir, env: {}, trust: new WorkspaceTrust(dir), startTimeoutMs: 2000 }).session();
    await expect(session.connect('x')).rejects.toBeInstanceOf(WorkspaceUntrusted);
    expect(seen).toEqual([]);
    await session.close();

    new TrustStore().record(dir, [mcpHeldPart('x', mcp.servers.x!)!]);
    const trusted = new McpServers(mcp, { workspace: dir, env: {}, trust: new WorkspaceTrust(dir), startTimeoutMs: 2000 }).session();
    // Not an MCP server: it fails to start, but only after the trusted request reached it.
    await expect(trusted.connect('x')).rejects.not.toBeInstanceOf(WorkspaceUntrusted);
    expect(seen.length).toBeGreaterThan(0);
    await trusted.close();
  });
});
