import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describeResult, parseSingleJson, repoRoot, runCli, runEvents, tempDir, type TempWorkspace } from './cliHarness';

const FIXTURES = join(repoRoot, 'test', 'fixtures', 'knowledge');
let ws: TempWorkspace;
beforeEach(() => {
  ws = tempDir('crewdeck-knowledge-cli-');
  mkdirSync(ws.path('docs'));
  copyFileSync(join(FIXTURES, 'warranty.pdf'), ws.path('docs', 'warranty.pdf'));
  copyFileSync(join(FIXTURES, 'people.csv'), ws.path('people.csv'));
});
afterEach(() => ws.remove());

const knowledge = (...args: string[]) => runCli(['knowledge', ...args, '--workspace', ws.dir], { cwd: ws.dir, timeoutMs: 30_000 });
const json = async (...args: string[]) => {
  const r = await knowledge(...args, '--json');
  expect(r.code, describeResult(r)).toBe(0);
  return JSON.parse(r.stdout);
};

describe('crewdeck knowledge', () => {
  it('ingests a PDF and a CSV, skips unchanged ones, lists and removes them', async () => {
    const first = await json('ingest', 'docs/warranty.pdf', 'people.csv');
    expect(first.map((r: { key: string; status: string }) => [r.key, r.status])).toEqual([
      ['file:docs/warranty.pdf', 'added'],
      ['file:people.csv', 'added'],
    ]);
    const again = await json('ingest', 'docs/warranty.pdf');
    expect(again[0]).toMatchObject({ status: 'unchanged', chunks: 1, contentHash: first[0].contentHash });

    const named = await knowledge('ingest', 'people.csv', '--name', 'staff');
    expect(named.code, describeResult(named)).toBe(0);
    expect(named.stdout).toBe('Unchanged staff (1 chunk · file:people.csv)\n');

    const list = await json('list');
    expect(list.map((s: { name: string; chunks: number }) => [s.name, s.chunks])).toEqual([
      ['staff', 1],
      ['warranty.pdf', 1],
    ]);
    const human = await knowledge('list');
    expect(human.stdout).toContain('warranty.pdf 1 chunk · ingested');
    expect(human.stdout).toContain('  file:docs/warranty.pdf');

    expect(await json('remove', 'staff', 'docs/warranty.pdf')).toEqual({ removed: ['file:people.csv', 'file:docs/warranty.pdf'], chunks: 2 });
    expect(await json('list')).toEqual([]);
  });

  it('reports bad sources and bad usage with exit code 2', async () => {
    const missing = await knowledge('ingest', 'nope.pdf');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe('error: knowledge source "nope.pdf": file not found (nope.pdf)\n');
    ws.write('broken.pdf', 'not a pdf');
    const broken = await knowledge('ingest', 'broken.pdf');
    expect(broken.code).toBe(2);
    expect(broken.stderr).toMatch(/^error: knowledge source "broken.pdf": is not a readable PDF/);
    const outside = await knowledge('ingest', join(repoRoot, 'package.json'));
    expect(outside.code).toBe(2);
    expect(outside.stderr).toContain('is outside the workspace');
    const unknown = await knowledge('remove', 'nothing-here');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe('error: no knowledge source "nothing-here" in this workspace (see crewdeck knowledge list)\n');
    const usage = await knowledge('ingest');
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('knowledge ingest needs files or URLs');
  });

  it('runs a crew whose PDF and CSV knowledge reaches the prompt (bundled CLI)', async () => {
    const file = ws.write('solar.crew.json', {
      kind: 'crew',
      version: 1,
      id: 'solar',
      name: 'Solar',
      knowledge: [
        { type: 'file', path: 'docs/warranty.pdf' },
        { type: 'file', path: 'people.csv' },
      ],
      agents: [{ id: 'w', role: 'Writer', goal: 'Write', llm: { provider: 'scripted', model: 't', script: { default: 'Dear Ada, 25 years.' } } }],
      tasks: [{ id: 'note', description: 'Tell Ada Lovelace the engineer how long the Sunbright panels warranty lasts', expectedOutput: 'A note', agentId: 'w' }],
    });
    const r = await runCli(['run', file, '--json'], { cwd: ws.dir, timeoutMs: 30_000 });
    expect(r.code, describeResult(r)).toBe(0);
    const result = parseSingleJson(r);
    const events = await runEvents(ws.dir, result.runId);
    const retrieved = events.find((e) => e.type === 'knowledge.retrieved');
    expect(retrieved && retrieved.type === 'knowledge.retrieved' ? retrieved.chunks.map((c) => c.source).sort() : []).toEqual(['people.csv', 'warranty.pdf']);
    const prompt = events.find((e) => e.type === 'llm.started');
    const user = prompt && prompt.type === 'llm.started' ? prompt.messages.find((m) => m.role === 'user')!.content : '';
    expect(user).toContain('[Source: warranty.pdf] Sunbright Solar warranty terms.');
    expect(user).toContain('[Source: people.csv] name: Ada Lovelace; role: engineer');
    // The CLI sees what the run ingested.
    expect((await json('list')).map((s: { name: string }) => s.name)).toEqual(['people.csv', 'warranty.pdf']);
  });
});
