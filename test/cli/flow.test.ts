import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedServer, type ScriptedServer } from '../support/scriptedServer';
import { trustWorkspace } from '../support/trustWorkspace';
import { describeResult, listRuns, parseSingleJson, runCli, runEvents, spawnCli, tempDir, type TempWorkspace } from './cliHarness';

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

/** A flow of `llm` steps on the scripted HTTP server: the server's request log is the model-call log. */
function chainFlow(steps: number): Record<string, unknown> {
  const llm = { provider: 'openai', model: 'step-model', baseUrl: server.baseUrl, apiKeyEnv: 'STEP_KEY', maxRetries: 0 };
  return {
    kind: 'flow',
    version: 1,
    id: 'chain',
    name: 'Chain',
    methods: Array.from({ length: steps }, (_, i) => ({
      id: `m${i + 1}`,
      name: `m${i + 1}`,
      trigger: i === 0 ? { start: true } : { listen: `m${i}` },
      body: { type: 'llm', prompt: i === 0 ? 'Step 1' : `Step ${i + 1} after: {input}`, llm },
    })),
  };
}
const stepOf = (body: any) => Number(/Step (\d+)/.exec(body.messages.at(-1).content)?.[1]);
const calledSteps = () => server.requests.filter((r) => r.path.endsWith('/chat/completions')).map((r) => stepOf(r.body));

describe('crewdeck run/resume for flows', () => {
  it('a flow killed with SIGKILL after its second method resumes without calling methods 1–2 again', async () => {
    ws = tempDir('crewdeck-flow-kill-');
    const file = ws.write('chain.flow.json', chainFlow(4));
    trustWorkspace(ws.dir); // its model sends STEP_KEY to a baseUrl of its own
    // Step 3 hangs until the process is killed; after the restart it answers at once.
    let hang = true;
    server.setHandler((body) => {
      const step = stepOf(body);
      return step === 3 && hang ? { content: 'never', delayMs: 60_000 } : { content: `out${step}` };
    });
    const child = spawnCli(['run', file, '--json'], { env: { STEP_KEY: 'k' } });
    const deadline = Date.now() + 15_000;
    while (!calledSteps().includes(3)) {
      if (Date.now() > deadline) throw new Error('step 3 was never called');
      await new Promise((r) => setTimeout(r, 20));
    }
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    expect(calledSteps()).toEqual([1, 2, 3]);

    const [run] = await listRuns(ws.dir);
    expect(run).toMatchObject({ kind: 'flow', status: 'interrupted' });

    hang = false;
    server.requests.length = 0;
    const resumed = await runCli(['resume', run.id, '--json', '--workspace', ws.dir], { env: { STEP_KEY: 'k' } });
    expect(resumed.code, describeResult(resumed)).toBe(0);
    expect(parseSingleJson(resumed)).toMatchObject({ runId: run.id, status: 'completed', output: 'out4' });
    // The model-call log after the restart: steps 1 and 2 were not called again.
    expect(calledSteps()).toEqual([3, 4]);
    const events = await runEvents(ws.dir, run.id);
    const failed = events.filter((e) => e.type === 'flow.method.failed');
    expect(failed).toEqual([expect.objectContaining({ methodName: 'm3', errorName: 'Interrupted' })]);
    expect(events.at(-1)!.type).toBe('run.completed');
  });

  it('a paused flow survives the process; `crewdeck resume --feedback` completes it and the outcome picks the branch', async () => {
    ws = tempDir('crewdeck-flow-pause-');
    const file = ws.write(
      'review.flow.json',
      {
        kind: 'flow',
        version: 1,
        id: 'review',
        name: 'Review',
        state: { initial: { topic: 'solar' } },
        methods: [
          { id: 'draft', name: 'draft', trigger: { start: true }, body: { type: 'script', code: 'return "Draft about " + state.topic;' } },
          {
            id: 'review',
            name: 'review',
            trigger: { listen: 'draft' },
            routes: ['approved', 'rejected'],
            body: { type: 'human_feedback', message: 'Approve the draft about {state.topic}?', defaultOutcome: 'rejected' },
          },
          { id: 'publish', name: 'publish', trigger: { listen: { route: 'approved' } }, body: { type: 'script', code: 'return "Published: " + input;' } },
          { id: 'archive', name: 'archive', trigger: { listen: { route: 'rejected' } }, body: { type: 'script', code: 'return "Archived";' } },
        ],
      },
    );
    const first = await runCli(['run', file, '--json']);
    expect(first.code, describeResult(first)).toBe(0);
    const paused = parseSingleJson(first);
    expect(paused).toMatchObject({
      status: 'paused',
      state: { topic: 'solar' },
      pending: { methodName: 'review', message: 'Approve the draft about solar?', output: 'Draft about solar', outcomes: ['approved', 'rejected'] },
    });

    const human = await runCli(['run', file]);
    expect(human.stdout).toContain('Paused: "review" waits for your feedback');
    expect(human.stdout).toMatch(/crewdeck resume run_\S+ --workspace \S+ --feedback/);

    const noFeedback = await runCli(['resume', paused.runId, '--workspace', ws.dir]);
    expect(noFeedback.code).toBe(2);
    expect(noFeedback.stderr).toContain('is waiting for feedback on "review"');

    // A second paused run of the same flow is stopped instead of answered.
    const other = parseSingleJson(await runCli(['run', file, '--json']));
    const cancelled = await runCli(['runs', 'cancel', other.runId, '--workspace', ws.dir]);
    expect(cancelled.code, describeResult(cancelled)).toBe(0);
    expect(cancelled.stdout).toContain(`Cancelled ${other.runId} (Review); it will not be resumed.`);
    const again = await runCli(['runs', 'cancel', other.runId, '--workspace', ws.dir]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('only paused or interrupted flows can be stopped this way');
    const refused = await runCli(['resume', other.runId, '--feedback', 'approved', '--workspace', ws.dir]);
    expect(refused.code).toBe(2);

    const done = await runCli(['resume', paused.runId, '--feedback', 'approved', '--json', '--workspace', ws.dir]);
    expect(done.code, describeResult(done)).toBe(0);
    expect(parseSingleJson(done)).toMatchObject({ status: 'completed', output: 'Published: Draft about solar', state: { review_feedback: 'approved' } });
    const events = await runEvents(ws.dir, paused.runId);
    expect(events.filter((e) => e.type === 'flow.method.started').map((e) => (e as { methodName: string }).methodName)).toEqual(['draft', 'review', 'publish']);
  });

  it('feedback classified by a model that answers a bare outcome name takes that branch, with the reply on flow.route', async () => {
    ws = tempDir('crewdeck-flow-classify-');
    server.setHandler((body) => (body.messages.at(-1).content.includes('Yes, page the on-call engineer') ? { content: 'approved' } : undefined));
    const llm = { provider: 'openai', model: 'judge-model', baseUrl: server.baseUrl, maxRetries: 0 };
    const file = ws.write('incident.flow.json', {
      kind: 'flow',
      version: 1,
      id: 'incident',
      name: 'Incident',
      methods: [
        { id: 'triage', name: 'triage', trigger: { start: true }, body: { type: 'script', code: 'return "Database latency is 4x normal";' } },
        {
          id: 'review',
          name: 'review',
          trigger: { listen: 'triage' },
          routes: ['approved', 'rejected'],
          body: { type: 'human_feedback', message: 'Escalate?', defaultOutcome: 'rejected', llm },
        },
        { id: 'page', name: 'page', trigger: { listen: { route: 'approved' } }, body: { type: 'script', code: 'return "Paged: " + input;' } },
        { id: 'close', name: 'close', trigger: { listen: { route: 'rejected' } }, body: { type: 'script', code: 'return "Closed";' } },
      ],
    });
    const paused = parseSingleJson(await runCli(['run', file, '--json']));
    expect(paused.status).toBe('paused');
    const done = await runCli(['resume', paused.runId, '--feedback', 'Yes, page the on-call engineer', '--json', '--workspace', ws.dir]);
    expect(done.code, describeResult(done)).toBe(0);
    expect(parseSingleJson(done)).toMatchObject({ status: 'completed', output: 'Paged: Database latency is 4x normal' });
    expect(server.requests.filter((r) => r.path.endsWith('/chat/completions'))).toHaveLength(1);
    const events = await runEvents(ws.dir, paused.runId);
    const route = events.find((e) => e.type === 'flow.route') as { route: string; reason: string; rawReply?: string } | undefined;
    expect(route).toMatchObject({ route: 'approved', reason: 'classified from the feedback', rawReply: 'approved' });
    expect(events.filter((e) => e.type === 'flow.method.started').map((e) => (e as { methodName: string }).methodName)).toEqual(['triage', 'review', 'page']);
  });
});
