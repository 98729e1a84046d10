import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startScriptedServer, type ScriptedServer } from '../support/scriptedServer';
import { trustWorkspace } from '../support/trustWorkspace';
import { describeResult, listRuns, parseSingleJson, runCli, runEvents, spawnCli, tempDir, type TempWorkspace } from '../cli/cliHarness';

/**
 * The three CrewAI Flow fixtures through the real CLI: `crewdeck import -o DIR --json` writes the flow
 * and its crews, `validate` passes each, and the flow runs to completion on the scripted
 * OpenAI-compatible server (every crew's agent forced onto one profile that points at it).
 */
const flows = join(import.meta.dirname, '../fixtures/crewai/flows');
// Every test runs the CLI several times (import, validate per document, run, resume): slow on a loaded machine.
vi.setConfig({ testTimeout: 180_000 });
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

const chats = () => server.requests.filter((r) => r.path.endsWith('/chat/completions'));
const system = (body: any): string => body.messages.find((m: { role: string }) => m.role === 'system')?.content ?? '';
const lastUser = (body: any): string => [...body.messages].reverse().find((m: { role: string }) => m.role === 'user')?.content ?? '';
const callsOf = (role: string) => chats().filter((r) => system(r.body).includes(role));

/** Imports a fixture into ws/imported and returns the documents listed by --json. */
async function importFixture(name: string): Promise<{ documents: { path: string; kind: string }[]; unmapped: unknown[]; dir: string }> {
  ws = tempDir(`crewdeck-flow-import-${name}-`);
  const r = await runCli(['import', join(flows, name), '-o', 'imported', '--json'], { cwd: ws.dir });
  expect(r.code, describeResult(r)).toBe(0);
  const out = parseSingleJson(r);
  const dir = ws.path('imported');
  ws.write('imported/crewdeck.json', { version: 1, models: { profiles: { scripted: { provider: 'openai', model: 'flow-model', baseUrl: server.baseUrl, maxRetries: 0 } } } });
  trustWorkspace(dir);
  for (const doc of out.documents) {
    const v = await runCli(['validate', doc.path], { cwd: dir });
    expect(v.code, describeResult(v)).toBe(0);
  }
  return { ...out, dir };
}

describe('CrewAI Flow projects import, validate and run on the scripted server', () => {
  it('self-evaluation loop: the router sends the post back once (retry count in state), then it is written to post.md', async () => {
    const { documents, unmapped, dir } = await importFixture('self_evaluation_loop');
    expect(documents).toEqual([
      { path: join(dir, 'self_evaluation_loop.flow.json'), kind: 'flow' },
      { path: join(dir, 'post_crew.crew.json'), kind: 'crew' },
      { path: join(dir, 'review_crew.crew.json'), kind: 'crew' },
    ]);
    expect(unmapped).toEqual([]);
    let reviews = 0;
    let posts = 0;
    server.setHandler((body) => {
      if (system(body).includes('Short Post Writer')) return { content: `Draft ${(posts += 1)}: the keeper counts the ships that pass.` };
      if (system(body).includes('Post Reviewer')) {
        reviews += 1;
        return { content: reviews === 1 ? '{"valid": false, "feedback": "Say what the keeper feels"}' : '{"valid": true, "feedback": "Good"}' };
      }
      return undefined;
    });
    const run = await runCli(['run', documents[0]!.path, '--model', 'scripted', '--json'], { cwd: dir, timeoutMs: 60_000 });
    expect(run.code, describeResult(run)).toBe(0);
    const out = parseSingleJson(run);
    expect(out.status).toBe('completed');
    expect(out.state).toMatchObject({ retry_count: 2, valid: true, feedback: 'Good', post: 'Draft 2: the keeper counts the ships that pass.' });
    expect(callsOf('Short Post Writer')).toHaveLength(2);
    expect(callsOf('Post Reviewer')).toHaveLength(2);
    // The second draft was asked with the reviewer's feedback (crew input from self.state.feedback).
    expect(lastUser(callsOf('Short Post Writer')[1]!.body)).toContain('Say what the keeper feels');
    expect(readFileSync(join(dir, 'post.md'), 'utf8')).toBe('Draft 2: the keeper counts the ships that pass.');
    const events = await runEvents(dir, out.runId);
    const routes = events.filter((e) => e.type === 'flow.route').map((e) => (e as { route: string }).route);
    expect(routes).toEqual(['retry', 'complete']);
  });

  it('self-evaluation router (the router guards, critiques and routes): valid on the second critique → complete, tagline.md written', async () => {
    const { documents, unmapped, dir } = await importFixture('self_evaluation_router');
    expect(documents.map((d) => [d.path.slice(dir.length + 1), d.kind])).toEqual([
      ['self_evaluation_router.flow.json', 'flow'],
      ['critique_crew.crew.json', 'crew'],
      ['draft_crew.crew.json', 'crew'],
    ]);
    expect(unmapped).toEqual([]);
    let drafts = 0;
    let critiques = 0;
    server.setHandler((body) => {
      if (system(body).includes('Tagline Writer')) return { content: `Tagline ${(drafts += 1)}: cross in the dark, wake among gulls` };
      if (system(body).includes('Tagline Critic')) {
        critiques += 1;
        return { content: critiques === 1 ? '{"valid": false, "feedback": "Name the islands"}' : '{"valid": true, "feedback": "Keep it"}' };
      }
      return undefined;
    });
    const run = await runCli(['run', documents[0]!.path, '--model', 'scripted', '--json'], { cwd: dir, timeoutMs: 60_000 });
    expect(run.code, describeResult(run)).toBe(0);
    const out = parseSingleJson(run);
    expect(out.status).toBe('completed');
    expect(out.state).toMatchObject({ retry_count: 2, valid: true, notes: 'Keep it', tagline: 'Tagline 2: cross in the dark, wake among gulls' });
    expect(callsOf('Tagline Writer')).toHaveLength(2);
    expect(callsOf('Tagline Critic')).toHaveLength(2);
    expect(lastUser(callsOf('Tagline Writer')[1]!.body)).toContain('Name the islands');
    expect(readFileSync(join(dir, 'tagline.md'), 'utf8')).toBe('Tagline 2: cross in the dark, wake among gulls');
    expect(existsSync(join(dir, 'unreviewed_tagline.md'))).toBe(false);
    const events = await runEvents(dir, out.runId);
    expect(events.filter((e) => e.type === 'flow.stub.reached')).toEqual([]);
    const routes = events.filter((e) => e.type === 'flow.route').map((e) => `${(e as { methodName: string }).methodName}→${(e as { route: string }).route}`);
    expect(routes).toEqual([
      'critique_tagline_guard→critique_tagline_continue',
      'critique_tagline→retry',
      'critique_tagline_guard→critique_tagline_continue',
      'critique_tagline→complete',
    ]);
    const ran = events.filter((e) => e.type === 'flow.method.completed').map((e) => (e as { methodName: string }).methodName);
    expect(ran.filter((m) => m === 'save_tagline')).toHaveLength(1);
    expect(ran).not.toContain('give_up');
  });

  it('self-evaluation router: never valid → four critiques (retry_count 0…3), then the guard routes max_retry_exceeded and only give_up runs', async () => {
    const { documents, dir } = await importFixture('self_evaluation_router');
    let drafts = 0;
    server.setHandler((body) => {
      if (system(body).includes('Tagline Writer')) return { content: `Tagline ${(drafts += 1)}` };
      if (system(body).includes('Tagline Critic')) return { content: '{"valid": false, "feedback": "Still a cliché"}' };
      return undefined;
    });
    const run = await runCli(['run', documents[0]!.path, '--model', 'scripted', '--json'], { cwd: dir, timeoutMs: 90_000 });
    expect(run.code, describeResult(run)).toBe(0);
    const out = parseSingleJson(run);
    expect(out.status).toBe('completed');
    // CrewAI's count: the guard tests retry_count > 3 before each critique, so critiques run at 0, 1, 2, 3.
    expect(out.state).toMatchObject({ retry_count: 4, valid: false, notes: 'Still a cliché', tagline: 'Tagline 5' });
    expect(callsOf('Tagline Critic')).toHaveLength(4);
    expect(callsOf('Tagline Writer')).toHaveLength(5);
    expect(readFileSync(join(dir, 'unreviewed_tagline.md'), 'utf8')).toBe('Not passed after 4 critiques: Tagline 5\n\nLast notes: Still a cliché');
    expect(existsSync(join(dir, 'tagline.md'))).toBe(false);
    const events = await runEvents(dir, out.runId);
    const routes = events.filter((e) => e.type === 'flow.route').map((e) => (e as { route: string }).route);
    expect(routes).toEqual([...Array(4).fill(['critique_tagline_continue', 'retry']).flat(), 'max_retry_exceeded']);
    const ran = events.filter((e) => e.type === 'flow.method.completed').map((e) => (e as { methodName: string }).methodName);
    expect(ran.filter((m) => m === 'give_up')).toHaveLength(1);
    expect(ran).not.toContain('save_tagline');
    // The guard's route stops the method: its crew step and final router do not run a fifth time.
    expect(ran.filter((m) => m === 'critique_tagline_crew')).toHaveLength(4);
    expect(ran.filter((m) => m === 'critique_tagline')).toHaveLength(4);
  });

  it('book writer: one chapter crew per outline entry (asyncio.gather in a nested async helper), joined into book.md', async () => {
    const { documents, dir } = await importFixture('book_writer');
    expect(documents.map((d) => [d.path.slice(dir.length + 1), d.kind])).toEqual([
      ['book_writer.flow.json', 'flow'],
      ['chapter_crew.crew.json', 'crew'],
      ['outline_crew.crew.json', 'crew'],
    ]);
    server.setHandler(bookReplies(() => false));
    const run = await runCli(['run', documents[0]!.path, '--model', 'scripted', '--json'], { cwd: dir, timeoutMs: 60_000 });
    expect(run.code, describeResult(run)).toBe(0);
    const out = parseSingleJson(run);
    expect(out.status).toBe('completed');
    expect(out.state.outline).toEqual(CHAPTERS);
    expect(out.state.chapters).toEqual(CHAPTERS.map((c) => `# ${c}\nA chapter about ${c}.`));
    expect(readFileSync(join(dir, 'book.md'), 'utf8')).toBe(CHAPTERS.map((c) => `# ${c}\nA chapter about ${c}.`).join('\n\n'));
    expect(callsOf('Chapter Writer')).toHaveLength(4);
  });

  it('lead scorer: the human menu (@human_feedback emit) is answered through crewdeck resume — rescore loops, send_emails ends through or_', async () => {
    const { documents, dir } = await importFixture('lead_score_flow');
    server.setHandler((body) => {
      if (system(body).includes('Lead Analyst')) return { content: `${/fit: ([^,]+)/.exec(lastUser(body))?.[1] ?? '?'}: ${lastUser(body).includes('CTO') ? 85 : 40}` };
      if (system(body).includes('Outreach Writer')) return { content: 'Dear Ada, shall we talk freight?' };
      return undefined;
    });
    const first = await runCli(['run', documents[0]!.path, '--model', 'scripted', '--json'], { cwd: dir, timeoutMs: 60_000 });
    expect(first.code, describeResult(first)).toBe(0);
    const paused = parseSingleJson(first);
    expect(paused).toMatchObject({ status: 'paused', pending: { methodName: 'review_scores', outcomes: ['send_emails', 'rescore', 'quit'] } });
    expect(paused.pending.output).toBe('Ada Park: 85\nBen Ode: 40\nCora Lind: 40');
    expect(callsOf('Lead Analyst')).toHaveLength(3);

    const again = await runCli(['resume', paused.runId, '--feedback', 'rescore', '--model', 'scripted', '--json', '--workspace', dir], { timeoutMs: 60_000 });
    expect(again.code, describeResult(again)).toBe(0);
    expect(parseSingleJson(again)).toMatchObject({ status: 'paused', state: { rounds: 2 } });
    expect(callsOf('Lead Analyst')).toHaveLength(6);

    const done = await runCli(['resume', paused.runId, '--feedback', 'send_emails', '--model', 'scripted', '--json', '--workspace', dir], { timeoutMs: 60_000 });
    expect(done.code, describeResult(done)).toBe(0);
    expect(parseSingleJson(done)).toMatchObject({ status: 'completed', state: { rounds: 2, emails: 'Dear Ada, shall we talk freight?' } });
    expect(callsOf('Outreach Writer')).toHaveLength(1);
    expect(readFileSync(join(dir, 'lead_report.md'), 'utf8')).toBe('# Leads after 2 round(s)\n\nDear Ada, shall we talk freight?');
  });
});

describe('serial book: a for loop of crew kickoffs, a Path.write_text, an input() menu router ending in sys.exit()', () => {
  it('writes the chapters one after another, binds book.md, asks the printed menu; "1" publishes, "2" ends the flow', async () => {
    const { documents, dir, unmapped } = await importFixture('serial_book');
    expect(unmapped).toEqual([]);
    server.setHandler(bookReplies(() => false));
    const first = await runCli(['run', documents[0]!.path, '--model', 'scripted', '--json'], { cwd: dir, timeoutMs: 60_000 });
    expect(first.code, describeResult(first)).toBe(0);
    const paused = parseSingleJson(first);
    // The loop ran each chapter crew in the outline's order, one at a time, appending each text.
    expect(callsOf('Chapter Writer').map((r) => chapterOf(r.body))).toEqual(CHAPTERS);
    expect(paused).toMatchObject({ status: 'paused', pending: { methodName: 'menu_input', message: '1. Publish it\n2. Leave it as a draft\nYour choice:' } });
    expect(paused.state.chapters).toEqual(CHAPTERS.map((c) => `# ${c}\nA chapter about ${c}.`));
    expect(readFileSync(join(dir, 'book.md'), 'utf8')).toBe(CHAPTERS.map((c) => `# ${c}\nA chapter about ${c}.`).join('\n\n'));

    const published = await runCli(['resume', paused.runId, '--feedback', ' 1 ', '--json', '--workspace', dir], { timeoutMs: 60_000 });
    expect(published.code, describeResult(published)).toBe(0);
    expect(parseSingleJson(published)).toMatchObject({ status: 'completed', state: { published: true, menu_input_feedback: '1' } });

    const again = parseSingleJson(await runCli(['run', documents[0]!.path, '--model', 'scripted', '--json'], { cwd: dir, timeoutMs: 60_000 }));
    const draft = await runCli(['resume', again.runId, '--feedback', '2', '--json', '--workspace', dir], { timeoutMs: 60_000 });
    expect(draft.code, describeResult(draft)).toBe(0);
    const ended = parseSingleJson(draft);
    expect(ended).toMatchObject({ status: 'completed', state: { published: false } });
    const routes = (await runEvents(dir, again.runId)).flatMap((e) => (e.type === 'flow.method.completed' && e.route ? [e.route] : []));
    expect(routes).toEqual(['menu_exit']);
  });
});

const CHAPTERS = ['Dawn', 'Noon', 'Dusk', 'Night'];
const chapterOf = (body: any) => /Write the chapter "([^"]+)"/.exec(lastUser(body))?.[1];

function bookReplies(hangOn: (chapter: string) => boolean) {
  return (body: any) => {
    if (system(body).includes('Book Outliner')) return { content: JSON.stringify({ chapters: CHAPTERS }) };
    if (system(body).includes('Chapter Writer')) {
      const chapter = chapterOf(body) ?? '?';
      return hangOn(chapter) ? { content: 'never', delayMs: 60_000 } : { content: `# ${chapter}\nA chapter about ${chapter}.` };
    }
    return undefined;
  };
}

describe('book writer: kill -9 in the middle of the fan-out, then crewdeck resume', () => {
  it('makes no model call for the chapters that had completed', async () => {
    const { documents, dir } = await importFixture('book_writer');
    let hang = true;
    server.setHandler(bookReplies((chapter) => hang && chapter === 'Dusk'));
    const child = spawnCli(['run', documents[0]!.path, '--model', 'scripted', '--json'], { cwd: dir });
    let printed = '';
    child.stdout.on('data', (d) => (printed += String(d)));
    child.stderr.on('data', (d) => (printed += String(d)));
    const asked = () => callsOf('Chapter Writer').map((r) => chapterOf(r.body));
    // Wait until the three other chapters are checkpointed while Dusk hangs.
    const deadline = Date.now() + 60_000;
    let runId: string | undefined;
    for (;;) {
      if (Date.now() > deadline) throw new Error(`the fan-out never got there; asked: ${asked().join(', ')}; the CLI printed: ${printed}`);
      if (asked().length >= 4) {
        runId ??= (await listRuns(dir))[0]?.id;
        if (runId) {
          const done = (await runEvents(dir, runId)).filter((e) => e.type === 'flow.item.completed');
          if (done.length === 3) break;
        }
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    // The run is still going (Dusk is waiting for its reply): kill it there.
    expect(child.exitCode).toBeNull();
    expect(child.signalCode).toBeNull();
    expect(() => process.kill(child.pid!, 0)).not.toThrow();
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    expect(child.signalCode).toBe('SIGKILL');
    expect(asked().sort()).toEqual([...CHAPTERS].sort());
    expect(existsSync(join(dir, 'book.md'))).toBe(false);

    const [run] = await listRuns(dir);
    expect(run).toMatchObject({ id: runId, kind: 'flow', status: 'interrupted' });
    hang = false;
    server.requests.length = 0;
    const resumed = await runCli(['resume', runId!, '--model', 'scripted', '--json', '--workspace', dir], { timeoutMs: 60_000 });
    expect(resumed.code, describeResult(resumed)).toBe(0);
    const out = parseSingleJson(resumed);
    expect(out).toMatchObject({ runId, status: 'completed' });
    expect(out.state.chapters).toEqual(CHAPTERS.map((c) => `# ${c}\nA chapter about ${c}.`));
    // Requests per chapter after the restart: only the one that had not finished; no outline call either.
    const perChapter = Object.fromEntries(CHAPTERS.map((c) => [c, asked().filter((a) => a === c).length]));
    expect(perChapter).toEqual({ Dawn: 0, Noon: 0, Dusk: 1, Night: 0 });
    expect(callsOf('Book Outliner')).toHaveLength(0);
    expect(readFileSync(join(dir, 'book.md'), 'utf8')).toContain('# Dusk\nA chapter about Dusk.');
    const events = await runEvents(dir, runId!);
    const restored = events.filter((e) => e.type === 'flow.item.completed' && (e as { restoredFrom?: string }).restoredFrom === 'checkpoint').map((e) => (e as { index: number }).index);
    expect(restored.sort()).toEqual([0, 1, 3]);
  });
});
