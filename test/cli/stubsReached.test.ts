import { afterEach, describe, expect, it } from 'vitest';
import { describeResult, parseSingleJson, runCli, showRun, tempDir, type TempWorkspace } from './cliHarness';

let ws: TempWorkspace | undefined;
afterEach(() => {
  ws?.remove();
  ws = undefined;
});

const FETCH_PY = '    def fetch_leads(self):\n        leads = requests.get(LEADS_URL).json()\n        self.state.leads = leads';
const NOTIFY_PY = '    def notify(self):\n        slack.chat_postMessage(channel="#sales", text=self.state.summary)';

/**
 * An imported flow as the importer leaves it when two methods call outside CrewAI: `fetch_leads` and
 * `notify` are stubs. `fetch_leads` runs twice (the router loops back once): it is listed once.
 */
function stubbedFlow(): Record<string, unknown> {
  return {
    kind: 'flow',
    version: 1,
    id: 'leads',
    name: 'Leads',
    state: { initial: { n: 0 } },
    methods: [
      { id: 'begin', name: 'begin', trigger: { start: true }, body: { type: 'script', code: 'return "start";' } },
      {
        id: 'fetch_leads',
        name: 'fetch_leads',
        trigger: { listen: { or: ['begin', { route: 'again' }] } },
        body: { type: 'script', code: 'return input;', stub: { python: FETCH_PY, file: 'src/leads/main.py', line: 42 } },
      },
      {
        id: 'count',
        name: 'count',
        trigger: { listen: 'fetch_leads' },
        routes: ['again', 'done'],
        body: { type: 'script', code: 'state.n += 1; return { output: "counted " + state.n, route: state.n < 2 ? "again" : "done" };' },
      },
      {
        id: 'notify',
        name: 'notify',
        trigger: { listen: { route: 'done' } },
        body: { type: 'script', code: 'return input;', stub: { python: NOTIFY_PY, file: 'src/leads/main.py', line: 80 } },
      },
    ],
  };
}

const expectedStubs = [
  { methodId: 'fetch_leads', methodName: 'fetch_leads', file: 'src/leads/main.py', line: 42, python: FETCH_PY },
  { methodId: 'notify', methodName: 'notify', file: 'src/leads/main.py', line: 80, python: NOTIFY_PY },
];

describe('crewdeck run: a flow that reaches imported CrewAI stubs says so', () => {
  it('--json: exit 3, status completed, stubsReached one per method in the order reached; runs show keeps them', async () => {
    ws = tempDir('crewdeck-stubs-json-');
    const file = ws.write('leads.flow.json', stubbedFlow());
    const r = await runCli(['run', file, '--json']);
    expect(r.code, describeResult(r)).toBe(3);
    const json = parseSingleJson(r);
    expect(json).toMatchObject({ status: 'completed', output: 'counted 2', state: { n: 2 } });
    expect(json.stubsReached).toEqual(expectedStubs);

    const shown = await showRun(ws.dir, json.runId);
    expect(shown).toMatchObject({ id: json.runId, status: 'completed' });
    expect(shown.stubsReached).toEqual(expectedStubs);
  });

  it('the final status line names each stub with file and line; runs show prints it again', async () => {
    ws = tempDir('crewdeck-stubs-text-');
    const file = ws.write('leads.flow.json', stubbedFlow());
    const r = await runCli(['run', file]);
    expect(r.code, describeResult(r)).toBe(3);
    const status = r.stdout.split('\n').filter((l) => l.includes('completed'));
    expect(status[0]).toMatch(/^⚠ completed with 2 stubs reached: fetch_leads \(src\/leads\/main\.py:42\), notify \(src\/leads\/main\.py:80\) · in \d/);
    // And once more after the output, where the run's result ends.
    expect(r.stdout.trimEnd().split('\n').at(-1)).toBe('⚠ completed with 2 stubs reached: fetch_leads (src/leads/main.py:42), notify (src/leads/main.py:80): their CrewAI Python did not run');

    const runId = /run (run_\S+)/.exec(r.stdout)?.[1];
    expect(runId, r.stdout).toBeDefined();
    const shown = await runCli(['runs', 'show', runId!, '--workspace', ws.dir]);
    expect(shown.code, describeResult(shown)).toBe(0);
    expect(shown.stdout).toContain('⚠ completed with 2 stubs reached: fetch_leads (src/leads/main.py:42), notify (src/leads/main.py:80) · in');
    expect(shown.stdout).toContain('Stubs 2 stubs reached: fetch_leads (src/leads/main.py:42), notify (src/leads/main.py:80): their CrewAI Python did not run');
  });

  it('the same flow without stubs exits 0 and its --json has no stubsReached', async () => {
    ws = tempDir('crewdeck-stubs-none-');
    const doc = stubbedFlow() as { methods: { body: Record<string, unknown> }[] };
    for (const m of doc.methods) delete m.body.stub;
    const file = ws.write('leads.flow.json', doc);
    const r = await runCli(['run', file, '--json']);
    expect(r.code, describeResult(r)).toBe(0);
    const json = parseSingleJson(r);
    expect(json.status).toBe('completed');
    expect(json).not.toHaveProperty('stubsReached');
  });

  it('a stub reached before a pause is listed when the resumed run completes (and while it is paused, with exit 0)', async () => {
    ws = tempDir('crewdeck-stubs-resume-');
    const file = ws.write('review.flow.json', {
      kind: 'flow',
      version: 1,
      id: 'review',
      name: 'Review',
      methods: [
        { id: 'fetch_leads', name: 'fetch_leads', trigger: { start: true }, body: { type: 'script', code: 'return "leads";', stub: { python: FETCH_PY, file: 'src/leads/main.py', line: 42 } } },
        { id: 'review', name: 'review', trigger: { listen: 'fetch_leads' }, body: { type: 'human_feedback', message: 'Are these the leads?' } },
        { id: 'notify', name: 'notify', trigger: { listen: 'review' }, body: { type: 'script', code: 'return input;', stub: { python: NOTIFY_PY, file: 'src/leads/main.py', line: 80 } } },
      ],
    });
    const first = await runCli(['run', file, '--json']);
    expect(first.code, describeResult(first)).toBe(0);
    const paused = parseSingleJson(first);
    expect(paused).toMatchObject({ status: 'paused', stubsReached: [expectedStubs[0]] });

    const done = await runCli(['resume', paused.runId, '--feedback', 'yes', '--json', '--workspace', ws.dir]);
    expect(done.code, describeResult(done)).toBe(3);
    const json = parseSingleJson(done);
    expect(json.status).toBe('completed');
    expect(json.stubsReached).toEqual(expectedStubs);
  });
});

describe('crewdeck validate: a flow with imported CrewAI stubs', () => {
  it('is valid, with one warning line per stub method naming the method, file and line', async () => {
    ws = tempDir('crewdeck-stubs-validate-');
    const file = ws.write('leads.flow.json', stubbedFlow());
    const r = await runCli(['validate', file], { cwd: ws.dir });
    expect(r.code, describeResult(r)).toBe(0);
    const lines = r.stdout.split('\n').filter((l) => l !== '');
    expect(lines[0]).toBe(`✓ ${file} is valid (2 warnings)`);
    expect(lines.slice(1)).toEqual([
      '! methods.1.body.stub: fetch_leads is a stub for CrewAI Python at src/leads/main.py:42 (leads = requests.get(LEADS_URL).json()): a run passes its input on unchanged there',
      '! methods.3.body.stub: notify is a stub for CrewAI Python at src/leads/main.py:80 (slack.chat_postMessage(channel="#sales", text=self.state.su…): a run passes its input on unchanged there',
    ]);

    const json = await runCli(['validate', file, '--json'], { cwd: ws.dir });
    expect(JSON.parse(json.stdout).warnings.map((w: { path: string }) => w.path)).toEqual(['methods.1.body.stub', 'methods.3.body.stub']);
  });
});
