import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startScriptedServer, type ScriptedServer } from '../support/scriptedServer';
import { trustWorkspace } from '../support/trustWorkspace';
import { canaryKey, echoedForms, keyFormsIn } from '../support/keyForms';
import { describeResult, parseSingleJson, runCli, tempDir, type CliResult, type TempWorkspace } from './cliHarness';

/**
 * Issue 26 item 2, the canary test through the CLI: a model server that echoes the API key it was sent,
 * in every form (plain, base64/base64url at each alignment, hex, URL forms, \uXXXX, UTF-16 base64,
 * spaced out, reversed, base64 wrapped across lines), into replies, tool calls, memories, evaluations and
 * test reasons; a knowledge file and a memory added by hand that hold it too. Then every file the runs
 * leave (outputFile of a task and of a flow method, write_file, the LanceDB memory and knowledge tables,
 * training and test records, the recording an offline re-run uses, an export) and every request the
 * server received (bodies, paths, headers other than Authorization) is searched: no form of the key.
 */

const KEY = canaryKey(164);
const env = { CANARY_KEY: KEY };
let server: ScriptedServer;
let ws: TempWorkspace;
const outputs: { command: string; result: CliResult }[] = [];

async function cli(args: string[], options: { stdin?: string; workspace?: boolean } = {}): Promise<CliResult> {
  const result = await runCli(options.workspace === false ? args : [...args, '--workspace', ws.dir], { env, stdin: options.stdin, timeoutMs: 120_000 });
  outputs.push({ command: args.join(' '), result });
  return result;
}

/** Every form of the key the request carried, as a server that echoes its Authorization header would write it. */
const echo = (authorization: string | undefined) => {
  const key = String(authorization ?? '').replace(/^Bearer /, '');
  return echoedForms(key).map(([form, text]) => `${form}: ${text}`).join('\n');
};

beforeAll(async () => {
  server = await startScriptedServer();
  server.setHandler((body, request) => {
    const said = echo(request.headers.authorization);
    const system = String(body.messages?.[0]?.content ?? '');
    const last = body.messages?.at(-1);
    if (body.response_format?.type === 'json_object' || body.response_format?.type === 'json_schema') {
      // Memory extraction, the training evaluator and the test evaluator each read their own fields.
      return { content: JSON.stringify({ memories: [{ content: `The launch is in Lisbon. ${said}`, categories: ['launch'], importance: 0.8 }], suggestions: [`Quote ${said}`], quality: 7, summary: said, score: 7, reason: said }) };
    }
    if (/evaluat/i.test(system)) return { content: JSON.stringify({ suggestions: [`Quote ${said}`], quality: 7, summary: said, score: 7, reason: said }) };
    if (body.tools?.length && last?.role === 'user') return { toolCalls: [{ name: 'write_file', arguments: { path: 'notes/echo.txt', content: `The key I was sent:\n${said}` } }] };
    return { content: `Final report: the launch is in Lisbon.\n${said}` };
  });
  ws = tempDir('crewdeck-canary-echo-');
  ws.write('crewdeck.json', {
    version: 1,
    models: { default: 'canary', profiles: { canary: { provider: 'openai', model: 'scripted-model', baseUrl: server.baseUrl, apiKeyEnv: 'CANARY_KEY', nativeTools: true } } },
    memory: { embedder: { provider: 'openai', model: 'scripted-embedding', baseUrl: server.baseUrl, apiKeyEnv: 'CANARY_KEY' } },
  });
  mkdirSync(ws.path('docs'));
  // A page or file that holds the key (a leaked .env, a pasted curl command): ingested as knowledge.
  writeFileSync(ws.path('docs/leaked.md'), `# Setup\nThe launch venue is Lisbon.\n${echoedForms(KEY).map(([form, text]) => `${form}: ${text}`).join('\n')}\n`);
  ws.write('launch.crew.json', {
    kind: 'crew',
    version: 1,
    id: 'launch',
    name: 'Launch',
    memory: { enabled: true },
    knowledge: [{ type: 'file', path: 'docs/leaked.md' }],
    agents: [{ id: 'planner', role: 'Planner', goal: 'Plan the launch', llm: 'canary', tools: [{ tool: 'write_file' }] }],
    tasks: [{ id: 'plan', description: 'Plan the launch', expectedOutput: 'A short plan', agentId: 'planner', outputFile: 'out/plan.md' }],
  });
  ws.write('say.flow.json', {
    kind: 'flow',
    version: 1,
    id: 'say',
    name: 'Say',
    state: { initial: {} },
    methods: [{ id: 'say', name: 'say', trigger: { start: true }, body: { type: 'llm', prompt: 'Say what you were sent', llm: 'canary' }, outputFile: 'out/method.md' }],
  });
  trustWorkspace(ws.dir);
});

afterAll(async () => {
  await server?.close();
  ws?.remove();
});

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

it('a key the model server echoes in every encoding is in no file the runs leave, no CLI output and no request the server receives', async () => {
  const run = await cli(['run', ws.path('launch.crew.json'), '--json']);
  expect(run.code, describeResult(run)).toBe(0);
  const { runId } = parseSingleJson(run) as { runId: string };
  const flow = await cli(['run', ws.path('say.flow.json'), '--json']);
  expect(flow.code, describeResult(flow)).toBe(0);
  // The recording: an offline re-run writes the output file again from it.
  const offline = await cli(['run', ws.path('launch.crew.json'), '--offline', runId, '--json']);
  expect(offline.code, describeResult(offline)).toBe(0);
  const trained = await cli(['train', ws.path('launch.crew.json'), '-n', '1', '--json'], { stdin: `Quote the key ${KEY} please\n\n` });
  expect(trained.code, describeResult(trained)).toBe(0);
  const tested = await cli(['test', ws.path('launch.crew.json'), '-n', '1', '--json']);
  expect(tested.code, describeResult(tested)).toBe(0);
  // A memory added by hand, and a knowledge file ingested from the command line.
  const added = await cli(['memory', 'add', `remember ${Buffer.from(KEY, 'utf16le').toString('base64')} and ${[...KEY].reverse().join('')}`, '--json']);
  expect(added.code, describeResult(added)).toBe(0);
  const ingested = await cli(['knowledge', 'ingest', 'docs/leaked.md', '--name', 'leaked-again', '--json']);
  expect(ingested.code, describeResult(ingested)).toBe(0);
  for (const args of [['memory', 'list', '--json'], ['memory', 'search', 'launch', '--json'], ['knowledge', 'list', '--json'], ['runs', 'show', runId, '--json'], ['runs', 'events', runId, '--json'], ['suggestions', 'list', 'launch', '--json']]) {
    const r = await cli(args);
    expect(r.code, `${args.join(' ')}\n${describeResult(r)}`).toBe(0);
  }
  const exported = await cli(['export', ws.path('launch.crew.json'), '--to', 'crewai', ws.path('export')], { workspace: false });
  expect(exported.code, describeResult(exported)).toBe(0);

  // The key was really sent, and really echoed: requests carried it as Authorization only.
  const chats = server.requests.filter((r) => r.path === '/v1/chat/completions');
  const embeds = server.requests.filter((r) => r.path === '/v1/embeddings');
  expect(chats.length).toBeGreaterThanOrEqual(6);
  expect(embeds.length).toBeGreaterThanOrEqual(2);
  for (const r of [...chats, ...embeds]) expect(r.headers.authorization).toBe(`Bearer ${KEY}`);

  // What the runs left, read back: the outputs exist and say what the model said, without the key.
  const plan = readFileSync(ws.path('out/plan.md'), 'utf8');
  expect(plan).toContain('Final report: the launch is in Lisbon.');
  expect(plan).toContain('base64 wrapped at 76 columns: ***');
  expect(plan).toContain('UTF-16 base64: ***');
  expect(readFileSync(ws.path('out/method.md'), 'utf8')).toContain('reversed: ***');
  expect(readFileSync(ws.path('notes/echo.txt'), 'utf8')).toContain('space-separated: ***');
  const memories = outputs.find((o) => o.command === 'memory list --json')!.result.stdout;
  expect(memories).toContain('The launch is in Lisbon.');
  expect(memories).toContain('remember ***');
  expect(outputs.find((o) => o.command === 'knowledge list --json')!.result.stdout).toContain('leaked-again');

  const files = filesUnder(ws.dir);
  const names = files.map((f) => relative(ws.dir, f).split('\\').join('/'));
  expect(names).toEqual(expect.arrayContaining(['out/plan.md', 'out/method.md', 'notes/echo.txt', '.crewdeck/crewdeck.db', 'docs/leaked.md']));
  expect(names.some((n) => n.startsWith('.crewdeck/memory/') && n.endsWith('.lance'))).toBe(true);
  expect(names.some((n) => n.startsWith('.crewdeck/knowledge/') && n.endsWith('.lance'))).toBe(true);
  expect(names.some((n) => n.startsWith('export/'))).toBe(true);
  // Positive controls: the scan reads the memory and knowledge tables' text, and would see a key there.
  const lanceText = (folder: string) => Buffer.concat(files.filter((f) => relative(ws.dir, f).startsWith(folder)).map((f) => readFileSync(f)));
  expect(lanceText('.crewdeck/memory').includes('The launch is in Lisbon.')).toBe(true);
  expect(lanceText('.crewdeck/knowledge').includes('The launch venue is Lisbon.')).toBe(true);
  expect(keyFormsIn(readFileSync(ws.path('docs/leaked.md')), KEY).length).toBeGreaterThanOrEqual(10);

  const found: string[] = [];
  for (const file of files) {
    const name = relative(ws.dir, file);
    if (name === join('docs', 'leaked.md')) continue; // the input that held the key to begin with
    for (const form of keyFormsIn(readFileSync(file), KEY)) found.push(`${name}: ${form}`);
  }
  for (const { command, result } of outputs) {
    for (const [stream, text] of [['stdout', result.stdout], ['stderr', result.stderr]] as const) {
      for (const form of keyFormsIn(Buffer.from(text), KEY)) found.push(`crewdeck ${command} (${stream}): ${form}`);
    }
  }
  for (const [i, request] of server.requests.entries()) {
    const { authorization: _sent, ...headers } = request.headers;
    for (const form of keyFormsIn(Buffer.from(JSON.stringify({ path: request.path, headers, body: request.body })), KEY)) found.push(`request #${i + 1} ${request.path}: ${form}`);
  }
  expect(found).toEqual([]);
}, 600_000);
