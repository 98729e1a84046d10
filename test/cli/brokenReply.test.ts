import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { EventOf } from '../../shared/events';
import { startScriptedServer, type ScriptedServer } from '../support/scriptedServer';
import { describeResult, parseSingleJson, runCli, runEvents, tempDir, type TempWorkspace } from './cliHarness';

/** A reply body that is not JSON (a proxy's page, a cut stream line), on the real openai SDK in the real CLI. */
let server: ScriptedServer;
let ws: TempWorkspace | undefined;
beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(() => server.close());
afterEach(() => {
  ws?.remove();
  ws = undefined;
  server.requests.length = 0;
});

function oneTaskCrew(maxRetries: number): string {
  ws = tempDir('crewdeck-broken-reply-');
  return ws.write('note.crew.json', {
    kind: 'crew',
    version: 1,
    id: 'note',
    name: 'Note',
    agents: [{ id: 'w', role: 'Writer', goal: 'Write', llm: { provider: 'openai', model: 'local-model', baseUrl: server.baseUrl, maxRetries } }],
    tasks: [{ id: 'note', description: 'Write a note', expectedOutput: 'A note', agentId: 'w' }],
  });
}

const chatRequests = () => server.requests.filter((r) => r.path.endsWith('/chat/completions'));

describe('a reply that is not JSON', () => {
  it('`data: {not json` once, then a good reply: the run completes with 2 requests and nothing on stderr', async () => {
    const file = oneTaskCrew(3);
    server.enqueue({ fault: { kind: 'not_json' } }, { content: 'A fine note.' });
    const r = await runCli(['run', file, '--json'], { cwd: ws!.dir });
    expect(r.code, describeResult(r)).toBe(0);
    expect(parseSingleJson(r)).toMatchObject({ status: 'completed', output: 'A fine note.' });
    expect(chatRequests()).toHaveLength(2);
    expect(chatRequests()[0]!.body.stream).toBe(true);
    expect(server.queued).toBe(0);
    expect(r.stderr).toBe('');
    const events = await runEvents(ws!.dir, parseSingleJson(r).runId);
    const failed = events.filter((e): e is EventOf<'llm.failed'> => e.type === 'llm.failed');
    expect(failed).toEqual([expect.objectContaining({ willRetry: true, attempt: 1, error: 'the model server sent a reply that is not valid JSON (first bytes: {not json)' })]);
  });

  it('persistent bad JSON fails the run with exit 1 and the message, never the raw body on stderr', async () => {
    const file = oneTaskCrew(1);
    server.enqueue({ fault: { kind: 'not_json', text: ' <raw proxy body>' } }, { fault: { kind: 'not_json', text: ' <raw proxy body>' } });
    const r = await runCli(['run', file, '--json'], { cwd: ws!.dir });
    expect(r.code, describeResult(r)).toBe(1);
    const result = parseSingleJson(r);
    expect(result.status).toBe('failed');
    expect(result.error).toContain('the model server sent a reply that is not valid JSON (first bytes: {not json <raw proxy body>) (gave up after 2 attempts)');
    expect(chatRequests()).toHaveLength(2);
    expect(r.stderr).not.toContain('Could not parse');
    expect(r.stderr).not.toContain('SyntaxError');
    expect(r.stderr).not.toContain('in JSON at position');
    const events = await runEvents(ws!.dir, result.runId);
    const runFailed = events.find((e): e is EventOf<'run.failed'> => e.type === 'run.failed');
    expect(runFailed?.error).toContain('not valid JSON (first bytes: {not json <raw proxy body>)');
  });

  it('without --json the failure shows the same message', async () => {
    const file = oneTaskCrew(0);
    server.enqueue({ fault: { kind: 'not_json' } });
    const r = await runCli(['run', file], { cwd: ws!.dir });
    expect(r.code, describeResult(r)).toBe(1);
    expect(`${r.stdout}${r.stderr}`).toContain('the model server sent a reply that is not valid JSON (first bytes: {not json)');
    expect(r.stderr).not.toContain('Could not parse');
  });
});
