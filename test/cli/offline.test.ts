import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createTcpServer, type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startScriptedServer, type ScriptedServer } from '../support/scriptedServer';
import { trustWorkspace } from '../support/trustWorkspace';
import { describeResult, listRuns, parseSingleJson, runCli, runEvents, tempDir, type TempWorkspace } from './cliHarness';

/**
 * `crewdeck run --offline <runId>`: a 3-task crew (calculator and http_request tools, a guardrail
 * retry, a delegation) recorded on the scripted OpenAI-compatible server, then re-run with the
 * servers gone and their ports watched: any connection attempt is counted and fails the test.
 */
let ws: TempWorkspace | undefined;
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  ws?.remove();
  ws = undefined;
  for (const close of closers.splice(0)) await close();
});

function user(body: any): string {
  return (body.messages as { role: string; content: string }[]).filter((m) => m.role === 'user').map((m) => m.content).join('\n');
}
const hasTool = (body: any) => (body.messages as { role: string }[]).some((m) => m.role === 'tool');

function answer(body: any, factUrl: string) {
  const text = user(body);
  if (text.includes('[D]')) return { content: 'One line from the writer.', usage: { prompt_tokens: 40, completion_tokens: 6 } };
  if (text.includes('[T1]')) {
    return hasTool(body)
      ? { content: 'Facts gathered.', usage: { prompt_tokens: 120, completion_tokens: 4 } }
      : { toolCalls: [{ name: 'calculator', arguments: { expression: '6*7' } }, { name: 'http_request', arguments: { url: factUrl } }], usage: { prompt_tokens: 100, completion_tokens: 20 } };
  }
  if (text.includes('[T2]')) return { content: text.includes('Draft one.') ? 'Draft two APPROVED.' : 'Draft one.', usage: { prompt_tokens: 80, completion_tokens: 5 } };
  if (text.includes('[T3]')) {
    return hasTool(body)
      ? { content: 'Final: the writer helped.', usage: { prompt_tokens: 90, completion_tokens: 6 } }
      : { toolCalls: [{ name: 'delegate_work', arguments: { coworker: 'Writer', task: '[D] Write one line' } }], usage: { prompt_tokens: 70, completion_tokens: 12 } };
  }
  return undefined;
}

function crewDoc(factHost: string, overrides: { guardrail?: unknown; maxRetries?: number; extraTask?: boolean } = {}) {
  return {
    kind: 'crew',
    version: 1,
    id: 'offline',
    name: 'Offline',
    agents: [
      { id: 'r', role: 'Researcher', goal: 'Research', llm: 'srv', tools: [{ tool: 'calculator' }, { tool: 'http_request', config: { allowedHosts: [factHost] } }] },
      { id: 'w', role: 'Writer', goal: 'Write', llm: 'srv' },
      { id: 'l', role: 'Lead', goal: 'Lead', llm: 'srv', allowDelegation: true },
    ],
    tasks: [
      { id: 't1', description: '[T1] Gather the facts', expectedOutput: 'Facts', agentId: 'r' },
      { id: 't2', description: '[T2] Draft', expectedOutput: 'A draft', agentId: 'w', guardrails: [overrides.guardrail ?? { type: 'contains', text: 'APPROVED' }], guardrailMaxRetries: overrides.maxRetries ?? 2 },
      { id: 't3', description: '[T3] Finish', expectedOutput: 'Text', agentId: 'l' },
      ...(overrides.extraTask ? [{ id: 't4', description: '[T4] One more', expectedOutput: 'More', agentId: 'w' }] : []),
    ],
  };
}

/** Listens on a closed server's port and counts every connection attempt. */
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

async function recordRun(): Promise<{ runId: string; result: any; modelPort: number; factPort: number; factHost: string }> {
  const server: ScriptedServer = await startScriptedServer();
  const fact: Server = createHttpServer((_req, res) => res.setHeader('connection', 'close').end('owls hunt at night'));
  await new Promise<void>((done) => fact.listen(0, '127.0.0.1', () => done()));
  const factPort = (fact.address() as AddressInfo).port;
  const factHost = `127.0.0.1:${factPort}`;
  server.setHandler((body) => answer(body, `http://${factHost}/fact`));
  ws = tempDir('crewdeck-offline-');
  ws.write('crewdeck.json', { version: 1, models: { profiles: { srv: { provider: 'openai', model: 'gpt-4o-mini', baseUrl: server.baseUrl } } } });
  ws.write('crew.crew.json', crewDoc(factHost));
  // allowedHosts names a loopback host: the user trusts the workspace (test/security/untrustedNetworkReach.test.ts).
  trustWorkspace(ws.dir);
  const r = await runCli(['run', ws.path('crew.crew.json'), '--json'], { cwd: ws.dir, timeoutMs: 60_000 });
  expect(r.code, describeResult(r)).toBe(0);
  const result = parseSingleJson(r);
  const modelPort = Number(new URL(server.baseUrl).port);
  await server.close();
  await new Promise<void>((done) => fact.close(() => done()));
  return { runId: result.runId, result, modelPort, factPort, factHost };
}

describe('crewdeck run --offline', { timeout: 180_000 }, () => {
  it('re-runs a recorded crew with identical outputs and no connection attempt, marked offline', async () => {
    const { runId, result, modelPort, factPort } = await recordRun();
    const recorded = await runEvents(ws!.dir, runId);
    // The recording has what the test is about: both tools, a guardrail retry and a delegation.
    expect(recorded.filter((e) => e.type === 'tool.completed').map((e) => (e as any).tool).sort()).toEqual(['calculator', 'delegate_work', 'http_request']);
    expect(recorded.some((e) => e.type === 'task.retrying')).toBe(true);
    expect(recorded.some((e) => e.type === 'delegation.completed')).toBe(true);
    expect(result.tasks.map((t: { raw: string }) => t.raw)).toEqual(['Facts gathered.', 'Draft two APPROVED.', 'Final: the writer helped.']);

    const model = await watchPort(modelPort);
    const fact = await watchPort(factPort);
    const r = await runCli(['run', ws!.path('crew.crew.json'), '--offline', runId, '--json'], { cwd: ws!.dir, timeoutMs: 60_000 });
    expect(r.code, describeResult(r)).toBe(0);
    const offline = parseSingleJson(r);
    expect(offline.offlineFrom).toBe(runId);
    expect(offline.runId).not.toBe(runId);
    expect(offline.tasks.map((t: { raw: string }) => t.raw)).toEqual(result.tasks.map((t: { raw: string }) => t.raw));
    expect(offline.output).toBe(result.output);
    expect(model.attempts()).toBe(0);
    expect(fact.attempts()).toBe(0);

    const events = await runEvents(ws!.dir, offline.runId);
    expect(events[0]).toMatchObject({ type: 'run.started', offlineFrom: runId });
    // The calculator ran for real; http_request answered from the recording.
    const toolResults = (list: typeof events) => list.filter((e) => e.type === 'tool.completed').map((e) => [(e as any).tool, (e as any).result]);
    expect(toolResults(events)).toEqual(toolResults(recorded));
    expect(events.filter((e) => e.type === 'llm.completed')).toHaveLength(recorded.filter((e) => e.type === 'llm.completed').length);
    // Offline replies cost nothing.
    expect(offline.tokenUsage.costUsd).toBe(0);
    const listed = (await listRuns(ws!.dir)).find((run) => run.id === offline.runId);
    expect(listed.offlineFrom).toBe(runId);
  });

  it('shows the new failure of an edited guardrail, and fails a document that asks for more than was recorded', async () => {
    const { runId, factHost, modelPort } = await recordRun();
    const model = await watchPort(modelPort);

    ws!.write('crew.crew.json', crewDoc(factHost, { guardrail: { type: 'contains', text: 'NEVER-SAID' }, maxRetries: 1 }));
    const guarded = await runCli(['run', ws!.path('crew.crew.json'), '--offline', runId, '--json'], { cwd: ws!.dir, timeoutMs: 60_000 });
    expect(guarded.code, describeResult(guarded)).toBe(1);
    const failed = parseSingleJson(guarded);
    expect(failed.status).toBe('failed');
    expect(failed.error).toContain('NEVER-SAID');
    const events = await runEvents(ws!.dir, failed.runId);
    expect(events.filter((e) => e.type === 'guardrail.failed').map((e) => (e as any).attempt)).toEqual([1, 2]);

    ws!.write('crew.crew.json', crewDoc(factHost, { extraTask: true }));
    const more = await runCli(['run', ws!.path('crew.crew.json'), '--offline', runId, '--json'], { cwd: ws!.dir, timeoutMs: 60_000 });
    expect(more.code, describeResult(more)).toBe(1);
    expect(parseSingleJson(more).error).toContain('no recorded reply for Writer in t4 (call 1): the document asks for more than the recording holds');
    expect(model.attempts()).toBe(0);

    const unknown = await runCli(['run', ws!.path('crew.crew.json'), '--offline', 'run-missing', '--json'], { cwd: ws!.dir, timeoutMs: 60_000 });
    expect(unknown.code).toBe(2);
  });
});
