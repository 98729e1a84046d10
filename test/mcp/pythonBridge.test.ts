import { execFileSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WorkspaceSettingsSchema, type WorkspaceSettings } from '../../shared/model/workspace';
import { ToolUnavailable } from '../../runtime/crew/roster';
import { McpServers } from '../../runtime/mcp/mcpServers';
import { pythonInterpreter, type PythonServerSettings } from '../../runtime/mcp/pythonBridge';
import { WorkspaceUntrusted } from '../../runtime/trust/trustErrors';
import { WorkspaceTrust } from '../../runtime/trust/workspaceTrust';
import { crew, ofType, runCrew, tempWorkspace } from '../support/crewHarness';
import { startScriptedServer, type ScriptedServer } from '../support/scriptedServer';
import { trustWorkspace } from '../support/trustWorkspace';

/**
 * The Python tool bridge with a real python3: a CrewAI-style project (test/fixtures/python-tools) whose
 * `@tool` function and `BaseTool` subclass run through MCP stdio, the policy gate and the trace.
 */

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '../fixtures/python-tools');
const PROJECT = join(FIXTURES, 'job_crew');
const SERVER = 'job-crew-tools';
const tool = (name: string) => `mcp:${SERVER}/${name}`;
const wire = (name: string) => `mcp__${SERVER}__${name}`;

let server: ScriptedServer;
const cleanups: (() => void)[] = [];
beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(() => server.close());
afterEach(() => {
  server.requests.length = 0;
  for (const c of cleanups.splice(0)) c();
});

function entry(extra: Partial<PythonServerSettings> = {}, project = PROJECT) {
  return { transport: 'python', project, path: ['src', '../crewai-stand-in'], modules: ['job_crew.tools.custom_tool', 'job_crew.tools.broken_tool'], ...extra };
}

function settingsFor(serverEntry: Record<string, unknown>): WorkspaceSettings {
  return WorkspaceSettingsSchema.parse({ version: 1, mcp: { servers: { [SERVER]: serverEntry } } });
}

function workspaceWith(settings: WorkspaceSettings, trusted = true) {
  const ws = tempWorkspace('crewdeck-pybridge-');
  cleanups.push(ws.remove);
  writeFileSync(join(ws.dir, 'crewdeck.json'), JSON.stringify(settings));
  if (trusted) trustWorkspace(ws.dir, settings);
  return ws;
}

/** A copy of the fixture (project and stand-in) that a test may change. */
function projectCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'crewdeck-pyproject-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  cpSync(FIXTURES, dir, { recursive: true });
  return join(dir, 'job_crew');
}

const MODEL = { provider: 'openai' as const, model: 'scripted-gpt', stream: false };
const ENV = { OPENAI_API_KEY: 'bridge-test-key', PATH: process.env.PATH ?? '' };

function hiringCrew(tools: string[]) {
  return crew({
    agents: [{ id: 'recruiter', role: 'Recruiter', goal: 'Find bakers', llm: MODEL, tools: tools.map((t) => ({ tool: tool(t) })) }],
    tasks: [{ id: 'find', description: 'Find openings for a baker', expectedOutput: 'A list of openings', agentId: 'recruiter' }],
  });
}

/** The content of the tool message the model got back for a call id, from the requests the server received. */
function observationSent(callId: string): string | undefined {
  for (const request of server.requests) {
    for (const m of (request.body?.messages ?? []) as { role: string; tool_call_id?: string; content?: string }[]) {
      if (m.role === 'tool' && m.tool_call_id === callId) return m.content;
    }
  }
  return undefined;
}

describe('the Python tool bridge', () => {
  it("runs a project's @tool function and BaseTool subclass on the scripted model: return values are observations, errors and import failures are error observations, stderr goes to the trace", async () => {
    const settings = settingsFor(entry());
    const ws = workspaceWith(settings);
    server.enqueue(
      { toolCalls: [{ name: wire('JobSearchTool'), arguments: { role: 'baker' } }] },
      { toolCalls: [{ name: wire('count_words'), arguments: { text: 'knead the dough gently', min_length: 4 } }] },
      { toolCalls: [{ name: wire('failing_lookup'), arguments: { query: 'Acme' } }] },
      { toolCalls: [{ name: wire('ReportTool'), arguments: { topic: 'bakers' } }] },
      { content: 'Two openings: Boulangerie Martin and Maison Pichon.' },
    );
    const { result, events } = await runCrew(hiringCrew(['JobSearchTool', 'count_words', 'failing_lookup', 'ReportTool']), {
      workspace: ws,
      settings,
      env: { ...ENV, OPENAI_BASE_URL: server.baseUrl },
    });
    expect(result.status).toBe('completed');
    expect(result.output).toBe('Two openings: Boulangerie Martin and Maison Pichon.');

    // The model was offered each tool with the schema the bridge read (args_schema, or the function's signature).
    const offered = (server.requests[0]!.body.tools as { function: { name: string; description: string; parameters: Record<string, unknown> } }[]).map((t) => t.function);
    expect(offered.find((t) => t.name === wire('JobSearchTool'))).toMatchObject({
      description: 'Find open positions for a role in a city.',
      parameters: { type: 'object', required: ['role'], properties: { role: { type: 'string', description: 'The job title to look for' }, city: { type: 'string', default: 'Lyon' } } },
    });
    expect(offered.find((t) => t.name === wire('count_words'))).toMatchObject({
      description: 'Count the words of a text that have at least min_length letters.',
      parameters: { type: 'object', required: ['text'], properties: { text: { type: 'string' }, min_length: { type: 'integer', default: 1 } } },
    });

    const started = ofType(events, 'tool.started');
    const outcome = (name: string) => events.find((e) => (e.type === 'tool.completed' || e.type === 'tool.failed') && e.tool === tool(name));
    const search = outcome('JobSearchTool');
    expect(search).toMatchObject({ type: 'tool.completed', result: '2 openings for baker in Lyon: Boulangerie Martin, Maison Pichon' });
    expect(observationSent(started[0]!.callId)).toBe('2 openings for baker in Lyon: Boulangerie Martin, Maison Pichon');
    expect(outcome('count_words')).toMatchObject({ type: 'tool.completed', result: '3 words' });

    const failed = outcome('failing_lookup');
    expect(failed).toMatchObject({ type: 'tool.failed', error: expect.stringContaining("ValueError: the registry refused the query 'Acme'") });
    const failedObservation = observationSent(started[2]!.callId)!;
    expect(failedObservation).toContain("ValueError: the registry refused the query 'Acme'");
    expect(failedObservation).not.toContain('Traceback');

    expect(outcome('ReportTool')).toMatchObject({
      type: 'tool.failed',
      error: expect.stringContaining("module job_crew.tools.broken_tool could not be imported: ModuleNotFoundError: No module named 'not_installed_reporting_lib'"),
    });

    // What the tools wrote to stderr (a print, a traceback) is in the trace under their call, never sent to the model.
    const output = ofType(events, 'tool.output');
    expect(output.find((e) => e.tool === tool('count_words'))?.text).toContain('count_words: counting for the trace');
    expect(output.find((e) => e.tool === tool('failing_lookup'))?.text).toMatch(/Traceback[\s\S]*ValueError: the registry refused the query 'Acme'/);
    const sentToModel = JSON.stringify(server.requests.map((r) => r.body.messages));
    expect(sentToModel).not.toContain('Traceback');
    expect(sentToModel).not.toContain('counting for the trace');
  });

  it('a tool that never answers hits the server timeout; the run goes on', async () => {
    const settings = settingsFor(entry({ timeoutMs: 1500 }));
    const ws = workspaceWith(settings);
    server.enqueue({ toolCalls: [{ name: wire('slow_lookup'), arguments: { query: 'Acme' } }] }, { toolCalls: [{ name: wire('JobSearchTool'), arguments: { role: 'baker', city: 'Paris' } }] }, { content: 'Done.' });
    const { result, events } = await runCrew(hiringCrew(['slow_lookup', 'JobSearchTool']), { workspace: ws, settings, env: { ...ENV, OPENAI_BASE_URL: server.baseUrl } });
    expect(result.status).toBe('completed');
    expect(ofType(events, 'tool.failed')[0]).toMatchObject({ tool: tool('slow_lookup'), error: `MCP server "${SERVER}" did not answer the call of "slow_lookup" within 1500 ms` });
    // The bridge still answers the next call while the hung one sleeps in its thread.
    expect(ofType(events, 'tool.completed')[0]).toMatchObject({ tool: tool('JobSearchTool'), result: '2 openings for baker in Paris: Boulangerie Martin, Maison Pichon' });
  });

  it('an untrusted workspace holds the bridge; a changed tool file holds it again, naming the file', async () => {
    const project = projectCopy();
    const settings = settingsFor(entry({}, project));
    const ws = workspaceWith(settings, false);
    const doc = hiringCrew(['JobSearchTool']);
    const untrusted = await runCrew(doc, { workspace: ws, settings, env: ENV }).catch((e: unknown) => e);
    expect(untrusted).toBeInstanceOf(WorkspaceUntrusted);
    const summaries = (untrusted as WorkspaceUntrusted).parts.map((p) => p.summary);
    expect(summaries).toEqual(
      expect.arrayContaining([
        `runs the Python tools of ${project} (job_crew.tools.custom_tool, job_crew.tools.broken_tool)`,
        expect.stringMatching(/^starts \S*python3? \(from PATH\) with Crewdeck's tool bridge in /),
        expect.stringMatching(new RegExp(`^runs ${escape(join(project, 'src/job_crew/tools/custom_tool.py'))} \\(module job_crew\\.tools\\.custom_tool; sha256 [0-9a-f]{12}\\)$`)),
        expect.stringMatching(/^runs .*src\/job_crew\/__init__\.py \(module job_crew; sha256/),
      ]),
    );
    expect(server.requests).toHaveLength(0);

    new WorkspaceTrust(ws.dir).grant(settings);
    server.enqueue({ toolCalls: [{ name: wire('JobSearchTool'), arguments: { role: 'baker' } }] }, { content: 'ok' });
    const trusted = await runCrew(doc, { workspace: ws, settings, env: { ...ENV, OPENAI_BASE_URL: server.baseUrl } });
    expect(trusted.result.status).toBe('completed');

    const file = join(project, 'src/job_crew/tools/custom_tool.py');
    writeFileSync(file, `${'# changed by hand\n'}${readText(file)}`);
    const changed = await runCrew(doc, { workspace: ws, settings, env: ENV }).catch((e: unknown) => e);
    expect(changed).toBeInstanceOf(WorkspaceUntrusted);
    expect((changed as WorkspaceUntrusted).parts.map((p) => p.summary)).toEqual([expect.stringMatching(new RegExp(`^runs the workspace file ${escape(file)}, which changed since you trusted it`))]);
  });

  it('no usable Python gives one clear message naming what to install', async () => {
    const settings = settingsFor(entry());
    const ws = workspaceWith(settings);
    const noPython = await runCrew(hiringCrew(['JobSearchTool']), { workspace: ws, settings, env: { ...ENV, PATH: join(ws.dir, 'no-bin') } }).catch((e: unknown) => e);
    expect(noPython).toBeInstanceOf(ToolUnavailable);
    expect((noPython as Error).message).toBe(
      `agents.0.tools.0.tool: tool "${tool('JobSearchTool')}" is not available; MCP server "${SERVER}" could not be started: no Python interpreter was found to run its tools ` +
        `(looked for the project's .venv, then uv, then python3 on PATH); install Python 3 (e.g. "apt install python3", or from https://www.python.org/downloads/) or set crewdeck.json mcp.servers.${SERVER}.python to your interpreter`,
    );

    const missingOverride = settingsFor(entry({ python: '/opt/nowhere/bin/python3.12' }));
    const ws2 = workspaceWith(missingOverride);
    const wrong = await runCrew(hiringCrew(['JobSearchTool']), { workspace: ws2, settings: missingOverride, env: ENV }).catch((e: unknown) => e);
    expect((wrong as Error).message).toContain(`the Python interpreter "/opt/nowhere/bin/python3.12" set in crewdeck.json mcp.servers.${SERVER}.python was not found`);
  });

  it("reads args_schema with each pydantic this machine has (v1's schema(), v2's model_json_schema())", async () => {
    const found = pydanticInterpreters();
    expect(found.length, 'python3 with pydantic (Debian python3-pydantic is 1.10; .ci/run installs it)').toBeGreaterThan(0);
    for (const { python, version } of found) {
      const settings = settingsFor(entry({ python }));
      const ws = workspaceWith(settings);
      const [listing] = await new McpServers(settings.mcp, { workspace: ws.dir, env: ENV, trust: new WorkspaceTrust(ws.dir) }).listTools();
      expect(listing!.error, `${python} (pydantic ${version})`).toBeUndefined();
      const search = listing!.tools.find((t) => t.name === 'JobSearchTool');
      expect(search?.inputSchema, `pydantic ${version}`).toMatchObject({ type: 'object', required: ['role'], properties: { role: { type: 'string' }, city: { default: 'Lyon' } } });
      expect(listing!.tools.map((t) => t.name).sort()).toEqual(['JobSearchTool', 'ReportTool', 'count_words', 'failing_lookup', 'slow_lookup']);
    }
  });

  it("starts the project's .venv before uv and python3", async () => {
    const project = projectCopy();
    const env = { PATH: process.env.PATH ?? '' };
    const server: PythonServerSettings = { transport: 'python', project, path: ['src'], modules: ['job_crew.tools.custom_tool'] };
    expect(pythonInterpreter(server, '/', env)).toMatchObject({ command: 'python3', source: 'system' });

    // A `uv` on PATH and the project's pyproject.toml: `uv run python`.
    const bin = join(project, '..', 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'uv'), '#!/bin/sh\nexit 1\n');
    chmodSync(join(bin, 'uv'), 0o755);
    expect(pythonInterpreter(server, '/', { PATH: `${bin}${delimiter}${env.PATH}` })).toMatchObject({ command: 'uv', args: ['run', 'python'], source: 'uv' });

    // A .venv wins; it is made with Debian's python3 (offline: --without-pip) and runs the tools.
    execFileSync('/usr/bin/python3', ['-m', 'venv', '--without-pip', '--system-site-packages', join(project, '.venv')]);
    expect(pythonInterpreter(server, '/', { PATH: `${bin}${delimiter}${env.PATH}` })).toMatchObject({ command: join(project, '.venv/bin/python'), source: 'venv' });
    const settings = settingsFor(entry({}, project));
    const ws = workspaceWith(settings);
    expect(new WorkspaceTrust(ws.dir).status(settings).parts.map((p) => p.summary)).toContainEqual(expect.stringContaining(`starts ${join(project, '.venv/bin/python')} (the project's .venv)`));
    const [listing] = await new McpServers(settings.mcp, { workspace: ws.dir, env, trust: new WorkspaceTrust(ws.dir) }).listTools();
    expect(listing!.tools.map((t) => t.name)).toContain('count_words');
  });
});

function readText(file: string): string {
  return execFileSync('cat', [file], { encoding: 'utf8' });
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** python3 on PATH and Debian's /usr/bin/python3, each with the pydantic major version it imports (one per version). */
function pydanticInterpreters(): { python: string; version: string }[] {
  const out: { python: string; version: string }[] = [];
  for (const python of ['python3', '/usr/bin/python3']) {
    try {
      const version = execFileSync(python, ['-c', 'import pydantic; print(pydantic.VERSION)'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
      if (!out.some((o) => o.version[0] === version[0])) out.push({ python, version });
    } catch {
      continue;
    }
  }
  return out;
}
