import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedServer, type ScriptedServer } from '../support/scriptedServer';
import { describeResult, listRuns, parseSingleJson, runCli, runEvents, spawnCli, tempDir, type TempWorkspace } from './cliHarness';
import { traceProblems } from '../support/crewHarness';

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

const chapterOf = (body: any) => Number(/Chapter (\d+)/.exec(body.messages.at(-1).content)?.[1]);
const calledChapters = () => server.requests.filter((r) => r.path.endsWith('/chat/completions')).map((r) => chapterOf(r.body));

describe('for_each: kill -9 in the middle of the fan-out, then crewdeck resume', () => {
  it('makes no model call for the items that had completed', async () => {
    ws = tempDir('crewdeck-foreach-kill-');
    const llm = { provider: 'openai', model: 'book-model', baseUrl: server.baseUrl, maxRetries: 0 };
    const file = ws.write('book.flow.json', {
      kind: 'flow',
      version: 1,
      id: 'book',
      name: 'Book',
      state: { initial: { chapters: ['Dawn', 'Noon', 'Dusk', 'Night'] } },
      methods: [
        { id: 'write', name: 'write_chapters', trigger: { start: true }, body: { type: 'for_each', items: '{state.chapters}', concurrency: 2, into: 'texts', body: { type: 'llm', prompt: 'Chapter {index}: {item}', llm } } },
        { id: 'join', name: 'join', trigger: { listen: 'write_chapters' }, body: { type: 'set_state', set: { book: '{state.texts}' } } },
      ],
    });
    // Chapter 2 hangs until the process is killed; chapters 0 and 1 answer at once.
    let hang = true;
    server.setHandler((body) => {
      const n = chapterOf(body);
      return n === 2 && hang ? { content: 'never', delayMs: 60_000 } : { content: `text ${n}` };
    });
    const child = spawnCli(['run', file, '--json'], { env: { BOOK_KEY: 'k' } });
    let printed = '';
    child.stdout.on('data', (d) => (printed += String(d)));
    child.stderr.on('data', (d) => (printed += String(d)));
    const deadline = Date.now() + 15_000;
    while (!(calledChapters().includes(2) && calledChapters().includes(1))) {
      if (Date.now() > deadline) throw new Error(`chapter 2 was never asked for; asked: ${calledChapters().join(', ')}; the CLI printed: ${printed}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    // Chapter 3 waits for a free slot behind the hanging chapter 2. Kill once chapters 0 and 1 are
    // stored as completed (a fixed pause lost that race on a loaded machine).
    for (;;) {
      if (Date.now() > deadline) throw new Error(`chapters 0 and 1 were never stored as completed; the CLI printed: ${printed}`);
      const runId = (await listRuns(ws.dir))[0]?.id;
      const done = runId ? (await runEvents(ws.dir, runId)).filter((e) => e.type === 'flow.item.completed').map((e) => (e as { index: number }).index) : [];
      if (done.includes(0) && done.includes(1)) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    const before = calledChapters();
    expect(before.slice(0, 2).sort()).toEqual([0, 1]);
    expect(before).toContain(2);

    const [run] = await listRuns(ws.dir);
    expect(run).toMatchObject({ kind: 'flow', status: 'interrupted' });
    hang = false;
    server.requests.length = 0;
    const resumed = await runCli(['resume', run.id, '--json', '--workspace', ws.dir], { env: { BOOK_KEY: 'k' } });
    expect(resumed.code, describeResult(resumed)).toBe(0);
    const out = parseSingleJson(resumed);
    expect(out).toMatchObject({ runId: run.id, status: 'completed' });
    expect(out.state.texts).toEqual(['text 0', 'text 1', 'text 2', 'text 3']);
    // After the restart only the unfinished items were asked for.
    const after = calledChapters().sort();
    expect(after).not.toContain(0);
    expect(after).not.toContain(1);
    expect(after).toContain(2);
    const events = await runEvents(ws.dir, run.id);
    const restored = events.filter((e) => e.type === 'flow.item.completed' && (e as { restoredFrom?: string }).restoredFrom === 'checkpoint').map((e) => (e as { index: number }).index);
    expect(restored.sort()).toEqual(before.filter((n) => n < 2 || (n === 3 && !after.includes(3))).sort());
    expect(events.at(-1)!.type).toBe('run.completed');
    // What the killed process left open (chapter 2's item, agent and model call, its method) is closed as Interrupted.
    expect(traceProblems(events)).toEqual([]);
  });
});
