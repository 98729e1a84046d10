import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser, serve, tempWorkspace, type ServedApp, type Session } from './support/app';

/**
 * A flow imported from CrewAI with two methods the importer could not map (stubs): run in the app, it
 * completes, and the run says "2 stubs reached" beside its status, with each stub method marked on the canvas.
 */

let app: ServedApp | undefined;
let workspace: string;
let session: Session | undefined;

const FLOW = 'leads.flow.json';
const leadsFlow = {
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
      trigger: { listen: 'begin' },
      body: { type: 'script', code: 'return input;', stub: { python: '    def fetch_leads(self):\n        self.state.leads = requests.get(LEADS_URL).json()', file: 'src/leads/main.py', line: 42 } },
    },
    { id: 'score', name: 'score', trigger: { listen: 'fetch_leads' }, body: { type: 'script', code: 'state.n += 1; return "scored";' } },
    {
      id: 'notify',
      name: 'notify',
      trigger: { listen: 'score' },
      body: { type: 'script', code: 'return input;', stub: { python: '    def notify(self):\n        slack.chat_postMessage(channel="#sales", text="done")', file: 'src/leads/main.py', line: 80 } },
    },
  ],
  // Two rows: Fit shows the methods at full size (their markers in full, not the zoomed-out labels).
  layout: { 'method:begin': { x: 0, y: 0 }, 'method:fetch_leads': { x: 340, y: 0 }, 'method:score': { x: 0, y: 260 }, 'method:notify': { x: 340, y: 260 } },
};

beforeAll(async () => {
  workspace = tempWorkspace('stubs');
  writeFileSync(join(workspace, FLOW), `${JSON.stringify(leadsFlow, null, 2)}\n`);
  app = await serve(workspace);
  session = await openBrowser(app.url);
});

afterAll(async () => {
  await session?.close();
  await app?.stop();
  rmSync(workspace, { recursive: true, force: true });
});

describe('a flow run that reaches imported CrewAI stubs, in the app', () => {
  it('completes with "2 stubs reached" beside its status and a marker on each stub method', async () => {
    const { page, shot } = session!;
    await page.locator(`[data-testid="document-item"][data-path="${FLOW}"]`).click({ timeout: 60_000 });
    await page.getByTestId('flow-canvas').waitFor();
    await page.getByTestId('flow-method-notify').waitFor();
    // Before any run: no marker.
    expect(await page.getByTestId('run-stubs').count()).toBe(0);

    await page.getByTestId('run-crew').click();
    await page.getByTestId('run-start').click();
    await expect.poll(() => page.getByTestId('run-status').textContent(), { timeout: 20_000 }).toBe('completed');

    const badge = page.getByTestId('run-stubs');
    await badge.waitFor();
    expect(await badge.isVisible()).toBe(true);
    expect(await badge.textContent()).toContain('2 stubs reached');
    expect(await badge.getAttribute('title')).toContain('fetch_leads (src/leads/main.py:42), notify (src/leads/main.py:80)');

    for (const [key, line] of [
      ['fetch_leads', 42],
      ['notify', 80],
    ] as const) {
      const marker = page.getByTestId(`stub-marker-${key}`);
      expect(await marker.isVisible()).toBe(true);
      // As drawn (innerText leaves out what CSS hides).
      expect(await marker.innerText()).toBe(`!\nStub reached · Python not run\nsrc/leads/main.py:${line}`);
      expect(await page.getByTestId(`flow-method-${key}`).getAttribute('data-stub-reached')).toBe('true');
    }
    for (const key of ['begin', 'score']) {
      expect(await page.getByTestId(`stub-marker-${key}`).count()).toBe(0);
      expect(await page.getByTestId(`flow-method-${key}`).getAttribute('data-stub-reached')).toBeNull();
    }

    // The trace says it too, beside the run's status.
    await page.getByTestId('tab-trace').click();
    const traced = page.getByTestId('trace-run-stubs');
    await traced.waitFor();
    expect(await traced.textContent()).toContain('2 stubs reached');

    const file = await shot('stubs-marker');
    mkdirSync('/tmp/progress', { recursive: true });
    copyFileSync(file, '/tmp/progress/stubs-marker.png');
    expect(session!.errors).toEqual([]);
  });
});
