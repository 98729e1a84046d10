import { createServer, type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startScriptedServer } from '../support/scriptedServer';
import { describeResult, parseSingleJson, runCli, tempDir, type TempWorkspace } from './cliHarness';

/** `crewdeck test --offline <runId>`: a zero-cost regression test on a recorded run's replies. */
let ws: TempWorkspace | undefined;
let watcher: ReturnType<typeof createServer> | undefined;
afterEach(async () => {
  ws?.remove();
  await new Promise<void>((done) => (watcher ? watcher.close(() => done()) : done()));
  watcher = undefined;
});

describe('crewdeck test --offline', () => {
  it('scores every iteration on the recorded replies with the checks, calling no model (not even the evaluator)', async () => {
    const server = await startScriptedServer();
    server.setHandler((body) => {
      const user = (body.messages as { role: string; content: string }[]).filter((m) => m.role === 'user').map((m) => m.content).join('\n');
      if (user.includes('[T1]')) return { content: 'Owls hunt at night.' };
      if (user.includes('[T2]')) return { content: 'APPROVED: a text about owls.' };
      return undefined;
    });
    ws = tempDir('crewdeck-test-offline-');
    ws.write('crewdeck.json', { version: 1, models: { profiles: { srv: { provider: 'openai', model: 'm', baseUrl: server.baseUrl } } } });
    ws.write('c.crew.json', {
      kind: 'crew',
      version: 1,
      id: 'c',
      name: 'C',
      agents: [{ id: 'a', role: 'Writer', goal: 'Write', llm: 'srv' }],
      tasks: [
        { id: 't1', description: '[T1] Facts', expectedOutput: 'Facts', agentId: 'a', tests: { checks: [{ type: 'contains', text: 'night' }] } },
        { id: 't2', description: '[T2] Text', expectedOutput: 'Text', agentId: 'a', tests: { checks: [{ type: 'contains', text: 'APPROVED' }] } },
      ],
    });
    const recorded = parseSingleJson(await runCli(['run', ws.path('c.crew.json'), '--json'], { cwd: ws.dir, timeoutMs: 60_000 }));
    expect(recorded.status).toBe('completed');
    const port = Number(new URL(server.baseUrl).port);
    await server.close();
    let attempts = 0;
    watcher = createServer((s) => {
      attempts++;
      s.destroy();
    });
    await new Promise<void>((done) => watcher!.listen(port, '127.0.0.1', () => done()));
    expect((watcher.address() as AddressInfo).port).toBe(port);

    const r = await runCli(['test', ws.path('c.crew.json'), '-n', '2', '--offline', recorded.runId, '--json'], { cwd: ws.dir, timeoutMs: 90_000 });
    expect(r.code, describeResult(r)).toBe(0);
    const test = parseSingleJson(r);
    expect(test.results).toHaveLength(4);
    expect(test.results.every((x: { status: string }) => x.status === 'completed')).toBe(true);
    expect(test.results.map((x: { checkScore: number }) => x.checkScore)).toEqual([10, 10, 10, 10]);
    // No evaluator reply is in the recording: the scores say so, the checks still count.
    expect(test.results[0].score).toBeUndefined();
    expect(test.results[0].reason).toContain('no recorded reply');
    expect(attempts).toBe(0);
  }, 200_000);
});
