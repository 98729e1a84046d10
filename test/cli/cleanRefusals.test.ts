import { cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { describeResult, runCli, tempDir, type TempWorkspace } from './cliHarness';

/**
 * Hostile or broken input is refused cleanly: exit 2, a message naming the file, line or field, and no
 * stack trace (no `    at …` frame, no bundled source line) — whichever command meets it.
 */
let ws: TempWorkspace | undefined;
afterEach(() => {
  ws?.remove();
  ws = undefined;
});

/** No stack frame and no line of the bundled CLI's source in what the command printed. */
function expectNoStack(r: { stdout: string; stderr: string }): void {
  const out = r.stdout + r.stderr;
  expect(out).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
  expect(out).not.toContain('dist/cli/');
  expect(out).not.toContain('Node.js v');
}

const CREWAI_FIXTURE = join(__dirname, '..', 'fixtures', 'crewai', 'market_research');

/** A copy of the CrewAI fixture project with its config/agents.yaml replaced. */
function crewAiProjectWith(agentsYaml: string): string {
  ws = tempDir('crewdeck-refusal-import-');
  const dir = ws.path('project');
  cpSync(CREWAI_FIXTURE, dir, { recursive: true });
  writeFileSync(join(dir, 'src', 'market_research', 'config', 'agents.yaml'), agentsYaml);
  return dir;
}

const scriptedCrew = {
  kind: 'crew',
  version: 1,
  id: 'c',
  name: 'C',
  agents: [{ id: 'a', role: 'Writer', goal: 'Write', llm: { provider: 'scripted', model: 'm', script: { default: 'ok' } } }],
  tasks: [{ id: 't', description: 'Say {topic}', expectedOutput: 'Text', agentId: 'a' }],
};

describe('clean refusals (exit 2, the file and field named, no stack)', { timeout: 120_000 }, () => {
  it('an invalid crewdeck.json, for every command that reads it', async () => {
    ws = tempDir('crewdeck-refusal-settings-');
    ws.write('crewdeck.json', { version: 1, knowledge: { sources: [{ type: 'url', url: 'http://127.0.0.1:9/x' }] } });
    ws.write('c.crew.json', scriptedCrew);
    ws.write('notes.txt', 'Some notes.');
    for (const args of [['knowledge', 'list'], ['knowledge', 'ingest', 'notes.txt'], ['memory', 'list'], ['run', 'c.crew.json', '--input', 'topic=x'], ['trust']]) {
      const r = await runCli(args, { cwd: ws.dir });
      expect(r.code, `${args.join(' ')}\n${describeResult(r)}`).toBe(2);
      expect(r.stderr).toContain(`${ws.path('crewdeck.json')} is not a valid document`);
      expect(r.stderr).toContain('(document): Unrecognized key: "knowledge"');
      expectNoStack(r);
    }
    const json = await runCli(['knowledge', 'list', '--json'], { cwd: ws.dir });
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout)).toMatchObject({ status: 'invalid', problems: [{ path: '(document)', message: 'Unrecognized key: "knowledge"' }] });
  });

  it('knowledge list and ingest on an untrusted workspace', async () => {
    ws = tempDir('crewdeck-refusal-untrusted-');
    ws.write('crewdeck.json', { version: 1, memory: { embedder: { provider: 'openai', model: 'embed', baseUrl: 'http://127.0.0.1:9/v1', apiKeyEnv: 'EMBED_KEY' } } });
    ws.write('notes.txt', 'Some notes.');
    for (const args of [['knowledge', 'list'], ['knowledge', 'ingest', 'notes.txt']]) {
      const r = await runCli(args, { cwd: ws.dir, env: { EMBED_KEY: 'embed-key-123456' } });
      expect(r.code, `${args.join(' ')}\n${describeResult(r)}`).toBe(2);
      expect(r.stderr).toContain('this workspace is not trusted, and crewdeck.json memory.embedder sends $EMBED_KEY to 127.0.0.1:9');
      expect(r.stderr).toContain('crewdeck trust');
      expectNoStack(r);
    }
  });

  it('crewdeck import of a YAML alias bomb (billion laughs) in config/agents.yaml', async () => {
    const lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let i = 1; i < 9; i++) lines.push(`${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9).fill(`*${String.fromCharCode(96 + i)}`).join(',')}]`);
    const dir = crewAiProjectWith(`${lines.join('\n')}\n`);
    const r = await runCli(['import', dir, '-o', ws!.path('out')], { cwd: ws!.dir });
    expect(r.code, describeResult(r)).toBe(2);
    expect(r.stderr).toContain('src/market_research/config/agents.yaml: the YAML expands too far through its aliases (more than 200 alias uses; an alias bomb?)');
    expectNoStack(r);
    const json = await runCli(['import', dir, '-o', ws!.path('out'), '--json'], { cwd: ws!.dir });
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout)).toMatchObject({ status: 'invalid', error: 'CrewAiYamlInvalid', file: 'src/market_research/config/agents.yaml' });
  });

  it('crewdeck import of YAML nested 100k deep, or an alias inside itself', async () => {
    const deep = crewAiProjectWith(`researcher: ${'['.repeat(100_000)}${']'.repeat(100_000)}\n`);
    const r = await runCli(['import', deep, '-o', ws!.path('out')], { cwd: ws!.dir });
    expect(r.code, describeResult(r)).toBe(2);
    expect(r.stderr).toContain('src/market_research/config/agents.yaml:1:77: collections nest more than 64 levels deep');
    expectNoStack(r);
    ws!.remove();
    const loop = crewAiProjectWith('researcher: &r\n  role: [*r]\n');
    const looped = await runCli(['import', loop, '-o', ws!.path('out')], { cwd: ws!.dir });
    expect(looped.code, describeResult(looped)).toBe(2);
    expect(looped.stderr).toContain('src/market_research/config/agents.yaml: collections nest more than 64 levels deep (or an alias refers to its own parent)');
  });

  it('a JSONL line of --inputs-file nested 100k deep (and --inputs likewise)', async () => {
    ws = tempDir('crewdeck-refusal-jsonl-');
    ws.write('c.crew.json', scriptedCrew);
    ws.write('rows.jsonl', `{"topic": "owls"}\n{"topic": ${'['.repeat(100_000)}${']'.repeat(100_000)}}\n`);
    const r = await runCli(['run', 'c.crew.json', '--inputs-file', 'rows.jsonl'], { cwd: ws.dir });
    expect(r.code, describeResult(r)).toBe(2);
    expect(r.stderr).toContain(`${ws.path('rows.jsonl')} is not a valid document`);
    expect(r.stderr).toContain('line 2: column 42: the value nests more than 32 levels deep');
    expectNoStack(r);
    const inline = await runCli(['run', 'c.crew.json', '--inputs', `{"topic": ${'['.repeat(30_000)}${']'.repeat(30_000)}}`], { cwd: ws.dir });
    expect(inline.code, describeResult(inline)).toBe(2);
    expect(inline.stderr).toContain('--inputs nests more than 32 levels deep (at character 42)');
    expectNoStack(inline);
  });
});
