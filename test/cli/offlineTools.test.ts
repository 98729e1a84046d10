import { chmodSync, cpSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createTcpServer, type AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { FAKE_KEYS, startFakeProviders } from '../support/fakeSearchProviders';
import { startScriptedServer } from '../support/scriptedServer';
import { trustWorkspace } from '../support/trustWorkspace';
import { describeResult, parseSingleJson, runCli, runEvents, tempDir, type TempWorkspace } from './cliHarness';

/**
 * `crewdeck run --offline <runId>` of a recorded run that used the new tools: web search (a local
 * stand-in provider), website search (a local page), file search and a Python tool through the bridge.
 * The re-run answers every one of them from the recording: the ports are watched (no connection
 * attempt), the bridge's interpreter is a wrapper that logs each start (it is not started), and the
 * output is the same.
 */
const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '../fixtures/python-tools');
let ws: TempWorkspace | undefined;
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  ws?.remove();
  ws = undefined;
  for (const close of closers.splice(0)) await close();
});

async function watchPort(port: number): Promise<{ attempts: () => number }> {
  let attempts = 0;
  const watcher = createTcpServer((socket) => {
    attempts++;
    socket.destroy();
  });
  await new Promise<void>((done, fail) => watcher.once('error', fail).listen(port, '127.0.0.1', () => done()));
  closers.push(() => new Promise((done) => watcher.close(() => done())));
  return { attempts: () => attempts };
}

const hasTool = (body: any) => (body.messages as { role: string }[]).some((m) => m.role === 'tool');

describe('crewdeck run --offline with web search, website search, file search and the Python bridge', { timeout: 180_000 }, () => {
  it('replays every tool from the recording: zero connections, the bridge not started, the same output', async () => {
    const model = await startScriptedServer();
    const providers = await startFakeProviders();
    const page: Server = createHttpServer((_req, res) => res.setHeader('connection', 'close').writeHead(200, { 'content-type': 'text/html' }).end('<html><body><article><h1>Opening hours</h1><p>The bakery opens at six in the morning every weekday.</p></article></body></html>'));
    await new Promise<void>((done) => page.listen(0, '127.0.0.1', () => done()));
    const pageUrl = `http://127.0.0.1:${(page.address() as AddressInfo).port}/hours`;

    ws = tempDir('crewdeck-offline-tools-');
    cpSync(FIXTURES, ws.path('py'), { recursive: true });
    // The bridge's interpreter: python3, logging each start.
    const startLog = ws.path('python-starts.log');
    writeFileSync(ws.path('logged-python'), `#!/bin/sh\necho started >> '${startLog}'\nexec python3 "$@"\n`);
    chmodSync(ws.path('logged-python'), 0o755);
    ws.write('crewdeck.json', {
      version: 1,
      models: { profiles: { srv: { provider: 'openai', model: 'gpt-4o-mini', baseUrl: model.baseUrl } } },
      mcp: { servers: { 'job-crew-tools': { transport: 'python', project: ws.path('py/job_crew'), path: ['src', '../crewai-stand-in'], modules: ['job_crew.tools.custom_tool'], python: ws.path('logged-python') } } },
    });
    ws.write('notes.txt', 'Opening notes. Deliveries arrive at five; the ovens are lit at half past four.');
    ws.write('crew.crew.json', {
      kind: 'crew',
      version: 1,
      id: 'offline-tools',
      name: 'Offline tools',
      agents: [
        {
          id: 'r',
          role: 'Researcher',
          goal: 'Research',
          llm: 'srv',
          tools: [
            { tool: 'web_search', config: { baseUrl: providers.base, resultCount: 2 } },
            { tool: 'website_search', config: { url: pageUrl } },
            { tool: 'file_search', config: { path: 'notes.txt' } },
            { tool: 'mcp:job-crew-tools/JobSearchTool' },
          ],
        },
      ],
      tasks: [{ id: 't1', description: '[T1] Find what the bakery does', expectedOutput: 'Facts', agentId: 'r' }],
    });
    model.setHandler((body) =>
      hasTool(body)
        ? { content: 'Sourdough, open at six, ovens at half past four, two openings.', usage: { prompt_tokens: 200, completion_tokens: 12 } }
        : {
            toolCalls: [
              { name: 'web_search', arguments: { query: 'sourdough' } },
              { name: 'website_search', arguments: { query: 'when does the bakery open' } },
              { name: 'file_search', arguments: { query: 'when are the ovens lit' } },
              { name: 'mcp__job-crew-tools__JobSearchTool', arguments: { role: 'baker' } },
            ],
            usage: { prompt_tokens: 100, completion_tokens: 30 },
          },
    );
    trustWorkspace(ws.dir); // a base URL of its own and the bridge wait for trust
    const env = { SERPER_API_KEY: FAKE_KEYS.serper };
    const recorded = await runCli(['run', ws.path('crew.crew.json'), '--json'], { cwd: ws.dir, env, timeoutMs: 90_000 });
    expect(recorded.code, describeResult(recorded)).toBe(0);
    const first = parseSingleJson(recorded);
    const firstEvents = await runEvents(ws.dir, first.runId);
    const results = (events: any[]) => events.filter((e) => e.type === 'tool.completed').map((e) => [e.tool, e.result]);
    expect(results(firstEvents).map(([tool]) => tool)).toEqual(['web_search', 'website_search', 'file_search', 'mcp:job-crew-tools/JobSearchTool']);
    expect(results(firstEvents)[0]![1]).toContain('Title: Sourdough bread - Wikipedia');
    expect(results(firstEvents)[1]![1]).toContain('opens at six');
    expect(results(firstEvents)[2]![1]).toContain('[Source: notes.txt]');
    expect(results(firstEvents)[3]![1]).toBe('2 openings for baker in Lyon: Boulangerie Martin, Maison Pichon');
    expect(readFileSync(startLog, 'utf8').trim().split('\n')).toHaveLength(1);

    const ports = [Number(new URL(model.baseUrl).port), Number(new URL(providers.base).port), Number(new URL(pageUrl).port)];
    await model.close();
    await providers.close();
    await new Promise<void>((done) => page.close(() => done()));
    const watchers = await Promise.all(ports.map(watchPort));

    // No key in the environment either: the recording answers.
    const offline = await runCli(['run', ws.path('crew.crew.json'), '--offline', first.runId, '--json'], { cwd: ws.dir, env: { SERPER_API_KEY: undefined }, timeoutMs: 90_000 });
    expect(offline.code, describeResult(offline)).toBe(0);
    const replayed = parseSingleJson(offline);
    expect(replayed.offlineFrom).toBe(first.runId);
    expect(replayed.output).toBe(first.output);
    expect(results(await runEvents(ws.dir, replayed.runId))).toEqual(results(firstEvents));
    expect(watchers.map((w) => w.attempts())).toEqual([0, 0, 0]);
    expect(readFileSync(startLog, 'utf8').trim().split('\n')).toHaveLength(1);
  });
});
