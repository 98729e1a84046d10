import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeResult, parseSingleJson, repoRoot, runCli } from '../cli/cliHarness';
import { startScriptedServer, type ScriptedServer } from '../support/scriptedServer';

/**
 * End to end through the CLI: `crewdeck import` a CrewAI project whose agents use the project's own
 * Python tools (a BaseTool subclass in an @agent method, an @tool function named in agents.yaml through
 * the class's @tool method) beside crewai_tools classes (a module-level variable, a local variable), then
 * `crewdeck run` the imported crew on a scripted OpenAI-compatible server: the tools run in a real
 * python3 through the bridge and what they return is the observation the model gets back.
 *
 * CrewAI itself cannot be installed here, so the tool modules' `from crewai.tools import …` finds the
 * tools' stand-in package (test/fixtures/python-tools/crewai-stand-in), added to the server's path.
 */
const FIXTURE = join(repoRoot, 'test/fixtures/crewai/python_tools/shelf_scout');
const STAND_IN = join(repoRoot, 'test/fixtures/python-tools/crewai-stand-in');
const SERVER = 'shelf-scout-tools';
const wire = (name: string) => `mcp__${SERVER}__${name}`;

let server: ScriptedServer;
let root: string;
beforeAll(async () => {
  server = await startScriptedServer();
  root = mkdtempSync(join(tmpdir(), 'crewdeck-pytools-import-'));
});
afterAll(() => {
  server.close();
  rmSync(root, { recursive: true, force: true });
});

/** What the model got back for a tool call id, from the requests the server received. */
function observation(callId: string): string | undefined {
  for (const request of server.requests) {
    for (const m of (request.body?.messages ?? []) as { role: string; tool_call_id?: string; content?: string }[]) {
      if (m.role === 'tool' && m.tool_call_id === callId) return m.content;
    }
  }
  return undefined;
}

describe('importing a CrewAI project with its own Python tools, then running it', () => {
  it('imports the tools as the project tool server and the crewai_tools classes as built-ins; the run gets the tools\' return values', async () => {
    const project = join(root, 'shelf_scout');
    const ws = join(root, 'ws');
    cpSync(FIXTURE, project, { recursive: true });

    const imported = await runCli(['import', project, '-o', ws, '--json'], { cwd: root });
    expect(imported.code, describeResult(imported)).toBe(0);
    const out = parseSingleJson(imported);
    expect(out.mcpServers).toEqual({ [SERVER]: { transport: 'python', project, path: ['src'], modules: ['shelf_scout.tools.stock', 'shelf_scout.tools.prices'] } });
    expect(out.files).toEqual(['data/catalogue.txt']);
    const doc = JSON.parse(readFileSync(join(ws, 'shelf_scout.crew.json'), 'utf8'));
    // @agent tools list: the project's BaseTool, a module-level FileReadTool variable (pinned to its file, so the model calls it
    // without arguments), SerperDevTool in a local variable (web_search with its arguments); YAML `tools:` through @tool.
    expect(doc.agents.map((a: { id: string; tools: { tool: string; config?: unknown }[] }) => [a.id, a.tools.map((t) => [t.tool, t.config])])).toEqual([
      ['stock_clerk', [[`mcp:${SERVER}/StockLookupTool`, undefined], ['read_file', { path: 'data/catalogue.txt' }], ['web_search', { provider: 'serper', resultCount: 3 }]]],
      ['pricing_clerk', [[`mcp:${SERVER}/price_lookup`, undefined]]],
    ]);
    expect(existsSync(join(ws, 'data/catalogue.txt'))).toBe(true);

    // The machine's CrewAI (a stand-in here) on the bridge's path, and a model profile for the scripted server.
    const settings = JSON.parse(readFileSync(join(ws, 'crewdeck.json'), 'utf8'));
    settings.mcp.servers[SERVER].path.push(STAND_IN);
    settings.models.profiles.scripted = { provider: 'openai', model: 'scripted-gpt', baseUrl: server.baseUrl, stream: false };
    writeFileSync(join(ws, 'crewdeck.json'), JSON.stringify(settings, null, 2));
    const trust = await runCli(['trust', '--yes'], { cwd: ws });
    expect(trust.code, describeResult(trust)).toBe(0);

    server.enqueue(
      { toolCalls: [{ name: wire('StockLookupTool'), arguments: { item: 'kettle' } }] },
      { toolCalls: [{ name: 'read_file', arguments: {} }] },
      { content: 'Thought: I now know the final answer\nFinal Answer: 12 kettles in stock.' },
      { toolCalls: [{ name: wire('price_lookup'), arguments: { item: 'kettle' } }] },
      { content: 'Thought: I now know the final answer\nFinal Answer: A kettle costs 4.20 EUR.' },
    );
    const run = await runCli(['run', 'shelf_scout.crew.json', '--model', 'scripted', '--json'], { cwd: ws, env: { OPENAI_API_KEY: 'pytools-test-key' }, timeoutMs: 120_000 });
    expect(run.code, describeResult(run)).toBe(0);
    const result = parseSingleJson(run);
    expect(result.status).toBe('completed');

    const calls = server.requests.flatMap((r) => ((r.body?.messages ?? []) as { role: string; tool_calls?: { id: string; function: { name: string } }[] }[]).flatMap((m) => m.tool_calls ?? []));
    const idOf = (name: string) => calls.find((c) => c.function.name === name)?.id;
    expect(observation(idOf(wire('StockLookupTool'))!)).toBe('kettle: 12 in stock');
    expect(observation(idOf(wire('price_lookup'))!)).toBe('kettle costs 4.20 EUR');
    expect(observation(idOf('read_file')!)).toContain('kettle, 1.7 l, stainless steel');
  }, 180_000);
});
