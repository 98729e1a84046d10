import { afterEach, describe, expect, it } from 'vitest';
import { describeResult, examplesDir, runCli, tempDir, type TempWorkspace } from './cliHarness';

let ws: TempWorkspace | undefined;
afterEach(() => {
  ws?.remove();
  ws = undefined;
});

/** One document with many independent problems; `validate` must report every one of them. */
const BROKEN_CREW = {
  kind: 'crew',
  version: 1,
  id: 'bad crew!',
  name: 'Broken crew',
  agents: [{ id: 'writer', role: 'Writer', goal: 'Write', tools: [{ tool: 'telepathy' }] }],
  tasks: [
    { id: 'first', description: 'Draft', expectedOutput: 'A draft', agentId: 'ghost', context: ['last'] },
    {
      id: 'last',
      description: 'Polish',
      expectedOutput: 'A polished text',
      agentId: 'writer',
      guardrails: [{ type: 'regex', pattern: '(unclosed' }],
      retries: 3,
    },
  ],
};

/** Expected `path: message` lines (path exact, message by pattern). */
const EXPECTED_PROBLEMS: [path: string, message: RegExp][] = [
  ['id', /ids may only contain/],
  ['agents.0.tools.0.tool', /unknown tool "telepathy"/],
  ['tasks.0.agentId', /no agent with id "ghost"/],
  ['tasks.0.context.0', /"last" runs later/],
  ['tasks.1.guardrails.0.pattern', /not a valid regular expression/],
  ['tasks.1', /retries/],
];

describe('crewdeck validate', () => {
  it('lists every problem of an invalid crew as `path: message` lines and exits 2', async () => {
    ws = tempDir();
    const file = ws.write('broken.crew.json', BROKEN_CREW);
    const r = await runCli(['validate', file], { cwd: ws.dir });
    expect(r.code, describeResult(r)).toBe(2);

    const lines = r.stdout.split('\n').filter((line) => line !== '');
    for (const [path, message] of EXPECTED_PROBLEMS) {
      const line = lines.find((l) => l.startsWith(`${path}: `) && message.test(l));
      expect(line, `a line "${path}: ${message.source}" in:\n${r.stdout}`).toBeDefined();
    }
    // Every stdout line is a `path: message` line, and nothing else is reported.
    for (const line of lines) expect(line).toMatch(/^[^\s:]+: \S/);
    expect(lines).toHaveLength(EXPECTED_PROBLEMS.length);
    expect(r.stderr).toContain(`${EXPECTED_PROBLEMS.length} problems`);
  });

  it('--json reports the same problems as data', async () => {
    ws = tempDir();
    const file = ws.write('broken.crew.json', BROKEN_CREW);
    const r = await runCli(['validate', file, '--json'], { cwd: ws.dir });
    expect(r.code, describeResult(r)).toBe(2);
    const report = JSON.parse(r.stdout);
    const paths = (report.problems as { path: string }[]).map((p) => p.path).sort();
    expect(paths).toEqual(EXPECTED_PROBLEMS.map(([path]) => path).sort());
  });

  it('invalid JSON syntax exits 2 with a clear message and position', async () => {
    ws = tempDir();
    const file = ws.write('syntax.crew.json', '{\n  "kind": "crew",\n  "version": 1,\n}\n');
    const r = await runCli(['validate', file], { cwd: ws.dir });
    expect(r.code, describeResult(r)).toBe(2);
    expect(r.stdout).toMatch(/invalid JSON at line 4, column 1/);
  });

  it('a missing file exits 2', async () => {
    ws = tempDir();
    const r = await runCli(['validate', ws.path('does-not-exist.crew.json')], { cwd: ws.dir });
    expect(r.code, describeResult(r)).toBe(2);
    expect(r.stdout).toContain('file not found');
  });

  it('no file at all is a usage error (exit 2)', async () => {
    const r = await runCli(['validate']);
    expect(r.code, describeResult(r)).toBe(2);
    expect(r.stderr).toMatch(/validate needs/);
  });

  it('both examples are valid (exit 0)', async () => {
    const r = await runCli(['validate', 'research-brief.crew.json', 'product-launch.crew.json'], { cwd: examplesDir });
    expect(r.code, describeResult(r)).toBe(0);
    expect(r.stdout).toContain('research-brief.crew.json is valid');
    expect(r.stdout).toContain('product-launch.crew.json is valid');
  });

  it('one invalid file among valid ones still exits 2', async () => {
    ws = tempDir();
    const broken = ws.write('broken.crew.json', BROKEN_CREW);
    const r = await runCli(['validate', `${examplesDir}/research-brief.crew.json`, broken], { cwd: ws.dir });
    expect(r.code, describeResult(r)).toBe(2);
    expect(r.stdout).toContain('research-brief.crew.json is valid');
    expect(r.stdout).toContain('tasks.0.agentId: ');
  });

  it('reports a bad tool setting with its field path, and warns about a missing search key by name', async () => {
    ws = tempDir();
    const agent = (tools: unknown[]) => ({ kind: 'crew', version: 1, id: 'c', name: 'C', agents: [{ id: 'a', role: 'R', goal: 'g', tools }], tasks: [{ id: 't', description: 'd', expectedOutput: 'e', agentId: 'a' }] });
    const bad = ws.write('bad.crew.json', agent([{ tool: 'web_search', config: { provider: 'brave', resultCount: 500 } }]));
    const r = await runCli(['validate', bad], { cwd: ws.dir });
    expect(r.code, describeResult(r)).toBe(2);
    expect(r.stdout).toMatch(/^agents\.0\.tools\.0\.config\.resultCount: .*100/m);

    const good = ws.write('good.crew.json', agent([{ tool: 'web_search', config: { provider: 'tavily' } }]));
    const missing = await runCli(['validate', good], { cwd: ws.dir, env: { TAVILY_API_KEY: undefined } });
    expect(missing.code, describeResult(missing)).toBe(0);
    expect(missing.stdout).toMatch(/^! agents\.0\.tools\.0\.tool: web_search needs the key TAVILY_API_KEY, which is not set/m);
    const present = await runCli(['validate', good], { cwd: ws.dir, env: { TAVILY_API_KEY: 'tvly-test' } });
    expect(present.stdout).not.toContain('TAVILY_API_KEY');
  });

  it('run refuses an invalid crew with exit 2 and lists the problems', async () => {
    ws = tempDir();
    const file = ws.write('broken.crew.json', BROKEN_CREW);
    const r = await runCli(['run', file, '--json'], { cwd: ws.dir });
    expect(r.code, describeResult(r)).toBe(2);
    const body = JSON.parse(r.stdout);
    expect(body.status).not.toBe('completed');
    expect((body.problems as { path: string }[]).map((p) => p.path)).toContain('tasks.0.context.0');
  });

  it('reports an invalid crewdeck.json of the workspace, which run then refuses (issue 26)', async () => {
    ws = tempDir();
    const crew = { kind: 'crew', version: 1, id: 'c', name: 'C', agents: [{ id: 'a', role: 'R', goal: 'g' }], tasks: [{ id: 't', description: 'd', expectedOutput: 'e', agentId: 'a' }] };
    const file = ws.write('c.crew.json', crew);
    expect((await runCli(['validate', file], { cwd: ws.dir })).code).toBe(0);
    ws.write('crewdeck.json', { version: 1, models: { profiles: { local: { provider: 'ollama', model: 'llama3' } } } });
    const r = await runCli(['validate', file], { cwd: ws.dir });
    expect(r.code, describeResult(r)).toBe(2);
    expect(r.stdout).toMatch(/^\(crewdeck\.json\) models\.profiles\.local\.provider: /m);
    const json = await runCli(['validate', file, '--json'], { cwd: ws.dir });
    expect(JSON.parse(json.stdout).problems.map((p: { path: string }) => p.path)).toContain('(crewdeck.json) models.profiles.local.provider');
    const run = await runCli(['run', file], { cwd: ws.dir });
    expect(run.code, describeResult(run)).toBe(2);
    expect(run.stderr + run.stdout).toMatch(/crewdeck\.json is not a valid document/);
  });
});
