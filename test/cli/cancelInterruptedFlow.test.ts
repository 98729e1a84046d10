import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedServer, type ScriptedServer } from '../support/scriptedServer';
import { traceProblems } from '../support/crewHarness';
import { trustWorkspace } from '../support/trustWorkspace';
import { assertGapFree, describeResult, listRuns, parseSingleJson, runCli, runEvents, spawnCli, tempDir, type TempWorkspace } from './cliHarness';

/** `crewdeck runs cancel` of a flow whose process was killed (SIGKILL) in a method's model call. */
let server: ScriptedServer;
let ws: TempWorkspace | undefined;
beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(() => server.close());
afterEach(() => {
  ws?.remove();
  ws = undefined;
  server.setHandler(undefined);
  server.requests.length = 0;
});

const stepOf = (body: any) => Number(/Step (\d+)/.exec(body.messages.at(-1).content)?.[1]);
const calledSteps = () => server.requests.filter((r) => r.path.endsWith('/chat/completions')).map((r) => stepOf(r.body));

describe('crewdeck runs cancel of an interrupted flow', () => {
  it('closes the method and model call the dead process was in, ends the run cancelled, and resume refuses it', async () => {
    ws = tempDir('crewdeck-flow-cancel-');
    const llm = { provider: 'openai', model: 'step-model', baseUrl: server.baseUrl, apiKeyEnv: 'STEP_KEY', maxRetries: 0 };
    const file = ws.write('chain.flow.json', {
      kind: 'flow',
      version: 1,
      id: 'chain',
      name: 'Chain',
      methods: [1, 2, 3].map((n) => ({ id: `m${n}`, name: `m${n}`, trigger: n === 1 ? { start: true } : { listen: `m${n - 1}` }, body: { type: 'llm', prompt: n === 1 ? 'Step 1' : `Step ${n} after: {input}`, llm } })),
    });
    trustWorkspace(ws.dir); // its model sends STEP_KEY to a baseUrl of its own
    server.setHandler((body) => (stepOf(body) === 2 ? { content: 'never', delayMs: 60_000 } : { content: `out${stepOf(body)}` }));
    const child = spawnCli(['run', file, '--json'], { env: { STEP_KEY: 'k' } });
    const deadline = Date.now() + 15_000;
    while (!calledSteps().includes(2)) {
      if (Date.now() > deadline) throw new Error('step 2 was never called');
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(() => process.kill(child.pid!, 0)).not.toThrow(); // still running, not exited
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    const [run] = await listRuns(ws.dir);
    expect(run).toMatchObject({ kind: 'flow', status: 'interrupted' });

    const cancelled = await runCli(['runs', 'cancel', run.id, '--json', '--workspace', ws.dir]);
    expect(cancelled.code, describeResult(cancelled)).toBe(0);
    expect(parseSingleJson(cancelled)).toEqual({ runId: run.id, status: 'cancelled' });
    expect((await listRuns(ws.dir))[0]).toMatchObject({ id: run.id, status: 'cancelled', error: 'cancelled from the command line after its process stopped' });

    const events = await runEvents(ws.dir, run.id);
    assertGapFree(events);
    expect(traceProblems(events)).toEqual([]);
    // m2's model call, then m2 itself, end as interrupted before the run's end.
    expect(events.slice(-3).map((e) => e.type)).toEqual(['llm.failed', 'flow.method.failed', 'run.cancelled']);
    expect(events.at(-2)).toMatchObject({ methodId: 'm2', errorName: 'Interrupted' });

    server.requests.length = 0;
    const refused = await runCli(['resume', run.id, '--workspace', ws.dir], { env: { STEP_KEY: 'k' } });
    expect(refused.code, describeResult(refused)).toBe(2);
    expect(refused.stderr).toContain('is cancelled; only paused or interrupted flows can be resumed');
    expect(calledSteps()).toEqual([]);
  }, 60_000);
});
