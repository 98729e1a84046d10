import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseCrewDocument } from '../../shared/model/parse';
import { describeResult, parseSingleJson, runCli, tempDir, type TempWorkspace } from './cliHarness';

const patterns = join(import.meta.dirname, '../fixtures/crewai/patterns');
let ws: TempWorkspace | undefined;
afterEach(() => {
  ws?.remove();
  ws = undefined;
});

describe('crewdeck import: several documents, -o folder, --json, errors in CrewAI terms, validate warnings', () => {
  it('a crew.py with three @CrewBase classes that main.py chains writes the flow and three crew files into the -o folder; --json lists them', async () => {
    ws = tempDir();
    const r = await runCli(['import', join(patterns, 'three_crews'), '-o', 'imported', '--json'], { cwd: ws.dir });
    expect(r.code, describeResult(r)).toBe(0);
    const out = parseSingleJson(r);
    const names = ['collect_crew', 'write_crew', 'check_crew'];
    expect(out.documents).toEqual([{ path: ws!.path('imported/newsletter_pipeline.flow.json'), kind: 'flow' }, ...names.map((n) => ({ path: ws!.path(`imported/${n}.crew.json`), kind: 'crew' }))]);
    expect(out.unmapped).toEqual([]);
    for (const doc of out.documents.slice(1)) expect(parseCrewDocument(JSON.parse(readFileSync(doc.path, 'utf8'))).ok).toBe(true);
  });

  it('several crews and -o naming one file is a usage error (exit 2), and nothing is written', async () => {
    ws = tempDir();
    const r = await runCli(['import', join(patterns, 'three_crews'), '-o', 'one.crew.json'], { cwd: ws.dir });
    expect(r.code, describeResult(r)).toBe(2);
    expect(r.stderr).toMatch(/holds the flow newsletter_pipeline and 3 crews \(collect_crew, write_crew, check_crew\); -o must name a folder/);
    expect(existsSync(ws.path('one.crew.json'))).toBe(false);
  });

  it('without -o, several crews go to the current folder', async () => {
    ws = tempDir();
    const r = await runCli(['import', join(patterns, 'three_crews')], { cwd: ws.dir });
    expect(r.code, describeResult(r)).toBe(0);
    for (const n of ['collect_crew', 'write_crew', 'check_crew']) expect(existsSync(ws.path(`${n}.crew.json`))).toBe(true);
  });

  it('a missing YAML key (the only crew) exits 2 naming the key; a plain script imports', async () => {
    ws = tempDir();
    const missing = await runCli(['import', join(patterns, 'missing_yaml_key')], { cwd: ws.dir });
    expect(missing.code, describeResult(missing)).toBe(2);
    expect(missing.stderr.trim()).toBe(`✗ src/email_sorter/crew.py:14: agents_config['email_filter_agent'] is not in agents.yaml (src/email_sorter/config/agents.yaml defines "email_sorter_agent")`);
    const script = await runCli(['import', join(patterns, 'plain_script'), '--json'], { cwd: ws.dir });
    expect(script.code, describeResult(script)).toBe(0);
    expect(parseSingleJson(script)).toMatchObject({ documents: [{ kind: 'crew', path: ws.path('email_digest.crew.json') }], unmapped: [] });
  });

  it('validate prints the duplicate-role warning and still exits 0', async () => {
    ws = tempDir();
    const r = await runCli(['import', join(patterns, 'duplicate_roles'), '-o', 'triage.crew.json'], { cwd: ws.dir });
    expect(r.code, describeResult(r)).toBe(0);
    const v = await runCli(['validate', 'triage.crew.json'], { cwd: ws.dir });
    expect(v.code, describeResult(v)).toBe(0);
    expect(v.stdout).toContain('triage.crew.json is valid (1 warning)');
    expect(v.stdout).toContain('! agents.1.role: duplicate role "Ticket Reviewer" (also agent "first_reviewer"): delegation to this role reaches "first_reviewer" only');
  });

  it('a Flow project: --json lists every document written, the flow first, then one per crew', async () => {
    ws = tempDir();
    const r = await runCli(['import', join(patterns, '../flows/book_writer'), '-o', 'book', '--json'], { cwd: ws.dir });
    expect(r.code, describeResult(r)).toBe(0);
    const out = parseSingleJson(r);
    expect(out.documents).toEqual([
      { path: ws.path('book/book_writer.flow.json'), kind: 'flow' },
      ...['chapter_crew', 'outline_crew'].map((n) => ({ path: ws!.path(`book/${n}.crew.json`), kind: 'crew' })),
    ]);
    for (const doc of out.documents) expect(existsSync(doc.path)).toBe(true);
    expect(out.unmapped).toEqual([]);
    // A flow project is several documents: -o naming one file is a usage error.
    const one = await runCli(['import', join(patterns, '../flows/book_writer'), '-o', 'book.crew.json'], { cwd: ws.dir });
    expect(one.code, describeResult(one)).toBe(2);
    expect(one.stderr).toMatch(/is a CrewAI Flow: it holds the flow book_writer and 2 crews \(chapter_crew, outline_crew\); -o must name a folder/);
  });
});

describe('crewdeck export of several crew files', () => {
  it('writes one CrewAI project with a crew.py per crew; crewdeck import reads the same crews back', async () => {
    ws = tempDir();
    const imported = await runCli(['import', join(patterns, 'three_crews'), '-o', 'crews'], { cwd: ws.dir });
    expect(imported.code, describeResult(imported)).toBe(0);
    const files = ['collect_crew', 'write_crew', 'check_crew'].map((n) => `crews/${n}.crew.json`);
    const r = await runCli(['export', ...files, '--to', 'crewai', 'project', '--json'], { cwd: ws.dir });
    expect(r.code, describeResult(r)).toBe(0);
    expect(parseSingleJson(r).files).toContain('src/collect_crew/crews/write_crew/crew.py');
    const back = await runCli(['import', 'project', '-o', 'back', '--json'], { cwd: ws.dir });
    expect(back.code, describeResult(back)).toBe(0);
    const docs = parseSingleJson(back).documents.map((d: { path: string }) => d.path.split('/').pop()).sort();
    expect(docs).toEqual(['check_crew.crew.json', 'collect_crew.crew.json', 'write_crew.crew.json']);
    for (const name of docs) expect(JSON.parse(readFileSync(ws.path('back', name), 'utf8'))).toEqual(JSON.parse(readFileSync(ws.path('crews', name), 'utf8')));
  });
});

describe('crewdeck export of a flow', () => {
  it('writes the flow as main.py with a Flow class plus the crews its methods run (for_each included)', async () => {
    ws = tempDir();
    const imported = await runCli(['import', join(patterns, '../flows/book_writer')], { cwd: ws.dir });
    expect(imported.code, describeResult(imported)).toBe(0);
    ws.write('book.flow.json', {
      kind: 'flow',
      version: 1,
      id: 'book',
      name: 'Book',
      state: { initial: { topic: 'lighthouses', outline: ['Bell Rock', 'Eddystone'] } },
      methods: [
        { id: 'write', name: 'write_chapters', trigger: { start: true }, body: { type: 'for_each', items: '{state.outline}', into: 'chapters', body: { type: 'crew', file: 'chapter_crew.crew.json', inputs: { title: '{item}', topic: '{state.topic}' } } } },
      ],
    });
    const r = await runCli(['export', 'book.flow.json', '--to', 'crewai', 'project', '--json'], { cwd: ws.dir });
    expect(r.code, describeResult(r)).toBe(0);
    const out = parseSingleJson(r);
    expect(out.files).toEqual(expect.arrayContaining(['src/book/main.py', 'src/book/crews/chapter_crew/crew.py']));
    const main = readFileSync(ws.path('project/src/book/main.py'), 'utf8');
    expect(main).toContain('class BookFlow(Flow[BookState]):');
    expect(main).toContain('await ChapterCrew().crew().kickoff_async(inputs={"title": f"{item}", "topic": f"{self.state.topic}"})');
    expect(main).toContain('asyncio.gather(');
  });
});
