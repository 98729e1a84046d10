import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { RuntimeEvent } from '../../shared/events';
import { Recording } from '../../runtime/offline/recording';
import { createRuntime } from '../../runtime/runtime';
import { crew, ofType, runCrew, scripted, tempWorkspace } from '../support/crewHarness';
import { trustWorkspace } from '../support/trustWorkspace';

let ws: ReturnType<typeof tempWorkspace> | undefined;
let server: Server | undefined;
afterEach(async () => {
  ws?.remove();
  ws = undefined;
  await new Promise<void>((done) => (server ? server.close(() => done()) : done()));
  server = undefined;
});

describe('offline re-run of a recording that lacks a tool result', () => {
  it('fails the call naming the missing recorded result, and never runs the real tool', async () => {
    const requests: string[] = [];
    server = createServer((req, res) => {
      requests.push(req.url ?? '');
      res.setHeader('connection', 'close').end(`fact for ${req.url}`);
    });
    await new Promise<void>((done) => server!.listen(0, '127.0.0.1', () => done()));
    const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
    const doc = crew({
      agents: [
        {
          id: 'r',
          role: 'Researcher',
          goal: 'fetch facts',
          tools: [{ tool: 'http_request', config: { allowedHosts: [host] } }],
          llm: scripted({ rules: [
            { when: { lastRole: 'user' }, reply: { toolCalls: [{ name: 'http_request', arguments: { url: `http://${host}/one` } }] } },
            { when: { lastRole: 'tool', last: '/one' }, reply: { toolCalls: [{ name: 'http_request', arguments: { url: `http://${host}/two` } }] } },
            { when: { lastRole: 'tool', last: '/two' }, reply: 'Both facts fetched.' },
          ] }),
        },
      ],
      tasks: [{ id: 't1', description: 'Fetch the facts', expectedOutput: 'facts', agentId: 'r' }],
    });
    ws = tempWorkspace('crewdeck-offline-missing-tool-');
    trustWorkspace(ws.dir, undefined, [doc]);
    const { result, events: recorded } = await runCrew(doc, { workspace: ws });
    expect(result.status).toBe('completed');
    expect(requests).toEqual(['/one', '/two']);
    expect(ofType(recorded, 'tool.completed').map((e) => e.result)).toEqual(['HTTP 200 OK\n\nfact for /one', 'HTTP 200 OK\n\nfact for /two']);

    // The recording without the second call's result (its tool span left out).
    const second = ofType(recorded, 'tool.started')[1]!.spanId;
    const recording = Recording.fromEvents(result.runId, recorded.filter((e) => e.spanId !== second));
    const events: RuntimeEvent[] = [];
    const offline = await createRuntime({ workspace: ws.dir, store: ws.store, offline: recording }).runCrew(doc, { onEvent: (e) => events.push(e) });
    // The offline run has ended (runCrew resolved, its last event is the run's end) and the server saw
    // nothing of it: the real tool never ran.
    expect(offline.runId).not.toBe(result.runId);
    expect(events[0]).toMatchObject({ type: 'run.started', runId: offline.runId, offlineFrom: result.runId });
    expect(events.at(-1)?.type).toMatch(/^run\.(completed|failed)$/);
    expect(requests).toEqual(['/one', '/two']);
    const missing = 'no recorded http_request result for Researcher in t1 (call 2): the document asks for more than the recording holds';
    // The recorded call is answered from the recording; the one it lacks fails, naming what is missing.
    expect(ofType(events, 'tool.completed').map((e) => e.result)).toEqual(['HTTP 200 OK\n\nfact for /one']);
    expect(ofType(events, 'tool.failed')).toMatchObject([{ tool: 'http_request', error: missing }]);
    const lastPrompt = ofType(events, 'llm.started').at(-1)!.messages.at(-1)!;
    expect(lastPrompt).toMatchObject({ role: 'tool', content: `Error using tool http_request: ${missing}` });
  });
});
