import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createTcpServer, type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startScriptedServer } from '../support/scriptedServer';
import { trustWorkspace } from '../support/trustWorkspace';
import { describeResult, parseSingleJson, runCli, runEvents, tempDir, type TempWorkspace } from './cliHarness';

/**
 * Offline is offline: a crew with a knowledge URL and memory, in a workspace whose embedder is an
 * OpenAI-compatible server, is recorded online; then `run --offline`, `replay --offline` and
 * `test --offline` re-run it with the model server, the embedder and the page gone and their ports
 * watched. No connection is attempted: the knowledge and the recalled memories come from the recording.
 */
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

const PAGE = '<html><body><article><h1>Opening hours</h1><p>The bakery opens at six in the morning every weekday. Sourdough is baked on Fridays.</p></article></body></html>';

function crewDoc(pageUrl: string, extraTask = false, memory = true) {
  return {
    kind: 'crew',
    version: 1,
    id: 'bakery',
    name: 'Bakery',
    knowledge: [{ type: 'url', url: pageUrl, name: 'hours page' }],
    memory: { enabled: memory },
    agents: [{ id: 'w', role: 'Writer', goal: 'Write', llm: 'srv' }],
    tasks: [
      { id: 't1', description: '[T1] When does the bakery open?', expectedOutput: 'A time', agentId: 'w', tests: { checks: [{ type: 'contains', text: 'six' }] } },
      { id: 't2', description: '[T2] When is sourdough baked?', expectedOutput: 'A day', agentId: 'w' },
      ...(extraTask ? [{ id: 't3', description: '[T3] Anything else?', expectedOutput: 'Text', agentId: 'w' }] : []),
    ],
  };
}

describe('offline re-runs with a knowledge URL and an OpenAI-compatible embedder', { timeout: 240_000 }, () => {
  it('make zero connection attempts in run, replay and test --offline, and fail naming a source the recording lacks', async () => {
    const model = await startScriptedServer();
    const embedder = await startScriptedServer({ embeddingDimensions: 24 });
    const page: Server = createHttpServer((_req, res) => res.setHeader('connection', 'close').writeHead(200, { 'content-type': 'text/html' }).end(PAGE));
    await new Promise<void>((done) => page.listen(0, '127.0.0.1', () => done()));
    const pageUrl = `http://127.0.0.1:${(page.address() as AddressInfo).port}/hours`;
    model.setHandler((body) => {
      const messages = body.messages as { role: string; content: string }[];
      if (messages[0]?.content.includes('long-term memory')) return { content: '{"memories": [{"content": "The bakery opens at six.", "categories": ["hours"], "importance": 0.7}]}' };
      const user = messages.filter((m) => m.role === 'user').map((m) => m.content).join('\n');
      if (user.includes('[T1]')) return { content: 'It opens at six.' };
      if (user.includes('[T2]')) return { content: 'On Fridays.' };
      return undefined;
    });

    ws = tempDir('crewdeck-offline-knowledge-');
    ws.write('crewdeck.json', {
      version: 1,
      models: { profiles: { srv: { provider: 'openai', model: 'gpt-4o-mini', baseUrl: model.baseUrl } } },
      memory: { embedder: { provider: 'openai', model: 'embed-small', baseUrl: embedder.baseUrl } },
    });
    ws.write('crew.crew.json', crewDoc(pageUrl));
    trustWorkspace(ws.dir, undefined, [crewDoc(pageUrl)]); // the page, the model and the embedder are on loopback hosts
    const recorded = await runCli(['run', ws.path('crew.crew.json'), '--json'], { cwd: ws.dir, timeoutMs: 90_000 });
    expect(recorded.code, describeResult(recorded)).toBe(0);
    const first = parseSingleJson(recorded);
    const firstEvents = await runEvents(ws.dir, first.runId);
    // The recording holds what this test is about: the page's chunks, recalled memory, traced embeddings.
    const retrieved = (events: any[]) => events.filter((e) => e.type === 'knowledge.retrieved').map((e) => [e.taskId, e.chunks.map((c: any) => [c.source, c.content])]);
    expect(retrieved(firstEvents)).toHaveLength(2);
    expect(JSON.stringify(retrieved(firstEvents))).toContain('opens at six');
    expect(firstEvents.filter((e) => e.type === 'memory.recall')).toHaveLength(2);
    expect(firstEvents.some((e) => e.type === 'embedding.completed')).toBe(true);
    expect(embedder.requests.filter((r) => r.path.endsWith('/embeddings')).length).toBeGreaterThan(0);

    const ports = [model.baseUrl, embedder.baseUrl, pageUrl].map((url) => Number(new URL(url).port));
    await model.close();
    await embedder.close();
    await new Promise<void>((done) => page.close(() => done()));
    const watchers = await Promise.all(ports.map(watchPort));
    const attempts = () => watchers.map((w) => w.attempts());

    const offline = await runCli(['run', ws.path('crew.crew.json'), '--offline', first.runId, '--json'], { cwd: ws.dir, timeoutMs: 90_000 });
    expect(offline.code, describeResult(offline)).toBe(0);
    const again = parseSingleJson(offline);
    expect(again.output).toBe(first.output);
    const againEvents = await runEvents(ws.dir, again.runId);
    expect(retrieved(againEvents)).toEqual(retrieved(firstEvents));
    expect(againEvents.filter((e) => e.type === 'memory.recall').map((e: any) => e.records)).toEqual(firstEvents.filter((e) => e.type === 'memory.recall').map((e: any) => e.records));
    expect(againEvents.some((e) => e.type === 'embedding.completed')).toBe(false);
    expect(attempts()).toEqual([0, 0, 0]);

    const replay = await runCli(['replay', first.runId, '--from-task', 't2', '--offline', first.runId, '--json'], { cwd: ws.dir, timeoutMs: 90_000 });
    expect(replay.code, describeResult(replay)).toBe(0);
    expect(parseSingleJson(replay).output).toBe(first.output);
    expect(attempts()).toEqual([0, 0, 0]);

    const tested = await runCli(['test', ws.path('crew.crew.json'), '-n', '1', '--offline', first.runId, '--json'], { cwd: ws.dir, timeoutMs: 90_000 });
    expect(tested.code, describeResult(tested)).toBe(0);
    expect(parseSingleJson(tested).results[0]).toMatchObject({ taskId: 't1', status: 'completed', checkScore: 10 });
    expect(attempts()).toEqual([0, 0, 0]);

    // A task the recording has no knowledge for: the run fails naming the URL it does not fetch
    // (memory off, so the memory it would recall, which the recording lacks too, is not what fails first).
    ws.write('crew.crew.json', crewDoc(pageUrl, true, false));
    const more = await runCli(['run', ws.path('crew.crew.json'), '--offline', first.runId, '--json'], { cwd: ws.dir, timeoutMs: 90_000 });
    expect(more.code, describeResult(more)).toBe(1);
    expect(parseSingleJson(more).error).toContain(`offline, knowledge source <${pageUrl}> is not fetched or read, and recorded run ${first.runId} holds no knowledge retrieved for Writer in t3`);
    expect(attempts()).toEqual([0, 0, 0]);
  });
});
