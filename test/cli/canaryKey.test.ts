import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startScriptedServer, type ScriptedServer } from '../support/scriptedServer';
import { trustWorkspace } from '../support/trustWorkspace';
import { describeResult, parseSingleJson, runCli, tempDir, type CliResult, type TempWorkspace } from './cliHarness';

/**
 * API keys never reach documents, events, logs, exports or memory (issue 7). Canary keys are put in
 * the environment and really sent over HTTP (the scripted server checks the Authorization header);
 * then every file under the workspace, byte for byte, and everything the CLI printed is searched.
 */

const FLAKY_SERVER = fileURLToPath(new URL('../fixtures/mcp/flakyServer.mjs', import.meta.url));
const profileKey = `sk-canary-${randomBytes(12).toString('hex')}`;
const openaiKey = `sk-canary-${randomBytes(12).toString('hex')}`;
const canaries = [profileKey, openaiKey];
const env = { CANARY_KEY: profileKey, OPENAI_API_KEY: openaiKey };

let server: ScriptedServer;
/** A careless server that refuses every call and echoes the Authorization header in its error. */
let echo: Server;
let echoUrl: string;
/** A server that echoes the Authorization header encoded: base64, base64url and URL-encoded (issue 13). */
let echoEncoded: Server;
let echoEncodedUrl: string;
let ws: TempWorkspace;
const outputs: { command: string; result: CliResult }[] = [];

async function cli(args: string[], { workspace = true, timeoutMs = 60_000 } = {}): Promise<CliResult> {
  const result = await runCli(workspace ? [...args, '--workspace', ws.dir] : args, { env, timeoutMs });
  outputs.push({ command: args.join(' '), result });
  return result;
}

beforeAll(async () => {
  server = await startScriptedServer();
  server.setHandler((body) => {
    const last = body.messages?.at(-1);
    if (body.response_format?.type === 'json_object') {
      return { content: JSON.stringify({ memories: [{ content: 'The launch is on June 3 in Lisbon.', categories: ['launch'], importance: 0.8 }] }) };
    }
    if (body.tools?.length && last?.role === 'user') return { toolCalls: [{ name: 'mcp__vault__env', arguments: {} }, { name: 'calculator', arguments: { expression: '6 * 7' } }] };
    if (last?.role === 'tool') return { content: 'Final report: the launch is on June 3 in Lisbon; 6 * 7 = 42.' };
    return { content: 'ok' };
  });
  echo = createServer((req, res) => {
    req.resume();
    res.writeHead(401, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { message: `Invalid key in header: ${req.headers.authorization}`, type: 'invalid_request_error', code: 'invalid_api_key' } }));
  });
  await new Promise<void>((done) => echo.listen(0, '127.0.0.1', done));
  echoUrl = `http://127.0.0.1:${(echo.address() as AddressInfo).port}/v1`;
  echoEncoded = createServer((req, res) => {
    req.resume();
    const header = String(req.headers.authorization);
    const key = header.replace(/^Bearer /, '');
    res.writeHead(401, { 'content-type': 'application/json' });
    res.end(JSON.stringify({
      error: {
        message: `Invalid credentials ${Buffer.from(header).toString('base64')} (${Buffer.from(key).toString('base64')}, ${Buffer.from(`x${header}`).toString('base64url')}, ${encodeURIComponent(`${key}/`)})`,
        type: 'invalid_request_error',
        code: 'invalid_api_key',
      },
    }));
  });
  await new Promise<void>((done) => echoEncoded.listen(0, '127.0.0.1', done));
  echoEncodedUrl = `http://127.0.0.1:${(echoEncoded.address() as AddressInfo).port}/v1`;
  ws = tempDir('crewdeck-canary-');
  ws.write('crewdeck.json', {
    version: 1,
    models: { default: 'canary', profiles: {
        canary: { provider: 'openai', model: 'scripted-model', baseUrl: server.baseUrl, apiKeyEnv: 'CANARY_KEY', nativeTools: true },
        // It names OPENAI_API_KEY: a model with a base URL of its own gets no key unless it names one.
        echo: { provider: 'openai', model: 'any', baseUrl: echoUrl, apiKeyEnv: 'OPENAI_API_KEY', maxRetries: 0 },
        echo64: { provider: 'openai', model: 'any', baseUrl: echoEncodedUrl, apiKeyEnv: 'CANARY_KEY', maxRetries: 0 },
      },
    },
    memory: { embedder: { provider: 'openai', model: 'scripted-embedding', baseUrl: server.baseUrl, apiKeyEnv: 'CANARY_KEY' } },
    // An MCP server gets the key through ${CANARY_KEY}; the file only names the variable.
    mcp: { servers: { vault: { transport: 'stdio', command: process.execPath, args: [FLAKY_SERVER], env: { FLAKY_TOKEN: '${CANARY_KEY}' } } } },
  });
  ws.write('launch.crew.json', {
    kind: 'crew',
    version: 1,
    id: 'launch',
    name: 'Launch',
    memory: { enabled: true },
    knowledge: [{ type: 'text', name: 'facts', text: 'The launch venue is Lisbon. The launch date is June 3.' }],
    agents: [{ id: 'planner', role: 'Planner', goal: 'Plan the launch', llm: 'canary', tools: [{ tool: 'mcp:vault/env' }, { tool: 'calculator' }] }],
    tasks: [{ id: 'plan', description: 'Plan the launch', expectedOutput: 'A short plan', agentId: 'planner' }],
  });
  // The profiles send keys to their own baseUrls and the MCP server runs a command: the user trusts them
  // (recorded in CREWDECK_CONFIG_DIR, outside the workspace this test scans).
  trustWorkspace(ws.dir);
});

afterAll(async () => {
  await server?.close();
  await new Promise((done) => echo?.close(done));
  await new Promise((done) => echoEncoded?.close(done));
  ws?.remove();
});

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

/** Where a canary shows in these bytes: as UTF-8, UTF-16, URL-encoded, base64 or base64url text. */
function leaks(bytes: Buffer): string[] {
  const found: string[] = [];
  for (const canary of canaries) {
    for (const [encoding, needle] of [
      ['utf8', Buffer.from(canary, 'utf8')],
      ['utf16le', Buffer.from(canary, 'utf16le')],
      ['base64', Buffer.from(Buffer.from(canary).toString('base64'))],
      ['base64 bearer', Buffer.from(Buffer.from(`Bearer ${canary}`).toString('base64'))],
      ['base64 x-bearer', Buffer.from(Buffer.from(`xBearer ${canary}`).toString('base64'))],
      ['base64url', Buffer.from(Buffer.from(canary).toString('base64url'))],
      ['base64url bearer', Buffer.from(Buffer.from(`Bearer ${canary}`).toString('base64url'))],
      ['base64url x-bearer', Buffer.from(Buffer.from(`xBearer ${canary}`).toString('base64url'))],
      // (The URL encoding of these keys is the key itself, so the utf8 needle covers it.)
    ] as const) {
      if (bytes.includes(needle)) found.push(`${canary.slice(0, 14)}… as ${encoding}`);
    }
  }
  return found;
}

it('a canary API key is sent to the model server but appears in no file a run and an export leave, nor in any CLI output', async () => {
  const run = await cli(['run', ws.path('launch.crew.json'), '--json']);
  expect(run.code, describeResult(run)).toBe(0);
  const { runId, status } = parseSingleJson(run) as { runId: string; status: string };
  expect(status).toBe('completed');

  // The keys were really used: chat and embeddings requests carried the profile's key, never the other.
  const chats = server.requests.filter((r) => r.path === '/v1/chat/completions');
  const embeds = server.requests.filter((r) => r.path === '/v1/embeddings');
  expect(chats.length).toBeGreaterThanOrEqual(2);
  expect(embeds.length).toBeGreaterThanOrEqual(1);
  for (const r of [...chats, ...embeds]) expect(r.headers.authorization).toBe(`Bearer ${profileKey}`);
  // MCP tools travel under wire-safe names and come back as mcp:<server>/<tool>.
  expect(chats[0]!.body.tools.map((t: { function: { name: string } }) => t.function.name)).toEqual(['mcp__vault__env', 'calculator']);

  const show = await cli(['runs', 'show', runId, '--json']);
  const events = await cli(['runs', 'events', runId, '--json']);
  expect(show.code, describeResult(show)).toBe(0);
  expect(events.code, describeResult(events)).toBe(0);
  mkdirSync(ws.path('artifacts'));
  ws.write('artifacts/run.json', show.stdout);
  ws.write('artifacts/events.jsonl', events.stdout);
  const toolEvents = events.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l)).filter((e) => e.type === 'tool.completed');
  // The MCP server saw the key (it echoed it back), and the observation it gave was redacted.
  expect(toolEvents.find((e) => e.tool === 'mcp:vault/env')?.result).toBe(`token length ${profileKey.length}; token ***`);

  // A server that echoes the key in its error: the run fails, and the message it records is cut.
  const refused = await cli(['run', ws.path('launch.crew.json'), '--json', '--model', 'echo']);
  expect(refused.code, describeResult(refused)).toBe(1);
  expect(parseSingleJson(refused).error).toContain('Invalid key in header: Bearer ***');
  // One that echoes it encoded (base64 of the header, of the key, base64url, URL-encoded): each form is cut.
  const refusedEncoded = await cli(['run', ws.path('launch.crew.json'), '--json', '--model', 'echo64']);
  expect(refusedEncoded.code, describeResult(refusedEncoded)).toBe(1);
  expect(parseSingleJson(refusedEncoded).error).toContain('Invalid credentials *** (***, ***, ***%2F)');
  const failedRun = (await cli(['runs', 'show', parseSingleJson(refusedEncoded).runId, '--json'])) as CliResult;
  expect(failedRun.code, describeResult(failedRun)).toBe(0);
  expect(JSON.parse(failedRun.stdout).error).toContain('Invalid credentials ***');

  const exported = await cli(['export', ws.path('launch.crew.json'), '--to', 'crewai', ws.path('export')], { workspace: false });
  expect(exported.code, describeResult(exported)).toBe(0);
  const memories = await cli(['memory', 'list', '--json']);
  expect(memories.code, describeResult(memories)).toBe(0);
  expect(memories.stdout).toContain('Lisbon');
  const search = await cli(['memory', 'search', 'launch date', '--json']);
  expect(search.code, describeResult(search)).toBe(0);
  const knowledge = await cli(['knowledge', 'list', '--json']);
  expect(knowledge.code, describeResult(knowledge)).toBe(0);
  writeFileSync(ws.path('artifacts/memory.json'), memories.stdout + search.stdout + knowledge.stdout);

  const files = filesUnder(ws.dir);
  const names = files.map((f) => relative(ws.dir, f).split('\\').join('/'));
  // The scan covers the run store, the memory and knowledge tables and the export.
  expect(names).toEqual(expect.arrayContaining(['.crewdeck/crewdeck.db', 'crewdeck.json', 'artifacts/events.jsonl']));
  expect(names.some((n) => n.startsWith('.crewdeck/') && n.includes('memory') && n.endsWith('.lance'))).toBe(true);
  expect(names.some((n) => n.startsWith('export/') && n.endsWith('crew.py'))).toBe(true);
  // The scan can see text in the binary database (a positive control for the negative check below).
  expect(files.some((f) => readFileSync(f).includes(Buffer.from('Final report: the launch is on June 3')))).toBe(true);

  const found = files.flatMap((f) => leaks(readFileSync(f)).map((where) => `${relative(ws.dir, f)}: ${where}`));
  // The scanner finds a canary in each encoding it looks for.
  expect(leaks(Buffer.from(`x${profileKey}y`)).length + leaks(Buffer.from(profileKey, 'utf16le')).length).toBe(2);
  for (const encoded of [
    Buffer.from(`Bearer ${profileKey}`).toString('base64'),
    Buffer.from(`xBearer ${profileKey}`).toString('base64url'),
    Buffer.from(profileKey).toString('base64url'),
  ]) {
    expect(leaks(Buffer.from(`error: ${encoded}.`)).length, encoded).toBeGreaterThan(0);
  }
  for (const { command, result } of outputs) {
    for (const [stream, text] of [['stdout', result.stdout], ['stderr', result.stderr]] as const) {
      for (const where of leaks(Buffer.from(text))) found.push(`crewdeck ${command} (${stream}): ${where}`);
    }
  }
  expect(found).toEqual([]);
}, 180_000);
