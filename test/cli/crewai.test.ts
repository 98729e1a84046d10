import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseCrewDocument } from '../../shared/model/parse';
import { offlineSettings } from '../crewai/offlineModel';
import { describeResult, examplesDir, parseSingleJson, repoRoot, runCli, tempDir, type TempWorkspace } from './cliHarness';

const fixtures = join(repoRoot, 'test/fixtures/crewai');
let ws: TempWorkspace | undefined;
afterEach(() => {
  ws?.remove();
  ws = undefined;
});

describe('crewdeck import (CrewAI project)', () => {
  it('writes a valid crew file, the models and the Python tool server into crewdeck.json, and a "Not imported" list; the crew runs', async () => {
    ws = tempDir();
    const r = await runCli(['import', join(fixtures, 'market_research'), '-o', 'research.crew.json'], { cwd: ws.dir });
    expect(r.code, describeResult(r)).toBe(0);
    const doc = JSON.parse(readFileSync(ws.path('research.crew.json'), 'utf8'));
    expect(parseCrewDocument(doc).ok).toBe(true);
    expect(doc.tasks.map((t: { id: string }) => t.id)).toEqual(['research_task', 'reporting_task']);
    expect(r.stdout).toContain('→ research.crew.json');
    expect(r.stdout).toContain('2 agents (researcher, reporting_analyst), 2 tasks (research_task, reporting_task)');
    expect(r.stdout).toMatch(/inputs: topic \(default "AI LLMs"\), current_year/);
    expect(r.stdout).toMatch(/Not imported \(\d+\):/);
    expect(r.stdout).toContain('model profiles (crewdeck.json): openai/gpt-4o-mini, ollama/llama3.1');
    // The project's own tool is a tool of its Python tool server, which crewdeck.json now holds.
    expect(doc.agents[0].tools.map((t: { tool: string }) => t.tool)).toContain('mcp:market-research-tools/MarketSizeTool');
    const written = JSON.parse(readFileSync(ws.path('crewdeck.json'), 'utf8'));
    expect(written.mcp.servers['market-research-tools']).toEqual({ transport: 'python', project: join(fixtures, 'market_research'), path: ['src'], modules: ['market_research.tools.custom_tool'] });
    expect(written.models.profiles['ollama/llama3.1']).toMatchObject({ model: 'llama3.1', baseUrl: 'http://localhost:11434/v1' });

    // The imported crew runs through the CLI on a scripted profile (no network), once the workspace is trusted.
    ws.write('crewdeck.json', { ...written, models: { ...written.models, profiles: { ...written.models.profiles, ...offlineSettings().models.profiles } } });
    const untrusted = await runCli(['run', 'research.crew.json', '--model', 'offline', '--input', 'current_year=2026', '--json'], { cwd: ws.dir });
    expect(untrusted.code, describeResult(untrusted)).toBe(2);
    const trust = await runCli(['trust', '--yes'], { cwd: ws.dir });
    expect(trust.code, describeResult(trust)).toBe(0);
    const run = await runCli(['run', 'research.crew.json', '--model', 'offline', '--input', 'current_year=2026', '--json'], { cwd: ws.dir });
    expect(run.code, describeResult(run)).toBe(0);
    expect(parseSingleJson(run).status).toBe('completed');
    expect(readFileSync(ws.path('report.md'), 'utf8')).toContain('# AI LLMs market report');
  });

  it('--json reports the crew, the files read and the unmapped items as data; the crew file validates', async () => {
    ws = tempDir();
    const r = await runCli(['import', join(fixtures, 'launch_campaign'), '--json'], { cwd: ws.dir });
    expect(r.code, describeResult(r)).toBe(0);
    const out = parseSingleJson(r);
    expect(out.file).toBe(ws.path('launch_campaign.crew.json'));
    expect(out.crew).toMatchObject({ id: 'launch_campaign', process: 'hierarchical', agents: 3, tasks: 4, inputs: ['product', 'audience', 'region'] });
    expect(out.sourceFiles).toContain('src/launch_campaign/tools/custom_tool.py');
    expect(out.mcpServers).toEqual({ 'launch-campaign-tools': { transport: 'python', project: join(fixtures, 'launch_campaign'), path: ['src'], modules: ['launch_campaign.tools.custom_tool'] } });
    const v = await runCli(['validate', out.file], { cwd: ws.dir });
    expect(v.code, describeResult(v)).toBe(0);
  });

  it('refuses to replace an existing crew file without --force (exit 2)', async () => {
    ws = tempDir();
    writeFileSync(ws.path('market_research.crew.json'), '{}');
    const r = await runCli(['import', join(fixtures, 'market_research')], { cwd: ws.dir });
    expect(r.code, describeResult(r)).toBe(2);
    expect(r.stderr).toMatch(/already exists; use --force/);
    expect(readFileSync(ws.path('market_research.crew.json'), 'utf8')).toBe('{}');
    const forced = await runCli(['import', join(fixtures, 'market_research'), '--force'], { cwd: ws.dir });
    expect(forced.code, describeResult(forced)).toBe(0);
  });

  it('exits 2 when no project is found, and names file and line of unreadable YAML', async () => {
    ws = tempDir();
    const none = await runCli(['import', ws.dir], { cwd: ws.dir });
    expect(none.code, describeResult(none)).toBe(2);
    expect(none.stderr).toMatch(/No CrewAI project in .*no crew \(a @CrewBase class, or Crew\(\.\.\.\) built in Python\) and no Flow class anywhere in it/);

    cpSync(join(fixtures, 'market_research'), ws.path('proj'), { recursive: true });
    const tasks = ws.path('proj/src/market_research/config/tasks.yaml');
    writeFileSync(tasks, readFileSync(tasks, 'utf8').replace('  agent: researcher\n', '  agent: [researcher\n'));
    const bad = await runCli(['import', ws.path('proj'), '--json'], { cwd: ws.dir });
    expect(bad.code, describeResult(bad)).toBe(2);
    const err = parseSingleJson(bad);
    expect(err).toMatchObject({ error: 'CrewAiYamlInvalid', file: 'src/market_research/config/tasks.yaml' });
    expect(err.line).toBeGreaterThanOrEqual(9);
    expect(existsSync(ws.path('market_research.crew.json'))).toBe(false);
  });
});

describe('crewdeck export --to crewai', () => {
  it('writes the CrewAI project and lists what CrewAI cannot hold; importing it back gives the same crew', async () => {
    ws = tempDir();
    const r = await runCli(['export', join(examplesDir, 'product-launch.crew.json'), '--to', 'crewai', ws.path('launch')], { cwd: ws.dir });
    expect(r.code, describeResult(r)).toBe(0);
    expect(r.stdout).toContain('src/product_launch/crew.py');
    expect(r.stdout).toMatch(/Not exported \(CrewAI has no equivalent\) \(\d+\):/);
    expect(r.stdout).toMatch(/tasks\.1\.guardrails\.0 {2}guardrail \(regex\)/);
    const crewPy = readFileSync(ws.path('launch/src/product_launch/crew.py'), 'utf8');
    expect(crewPy).toContain('process=Process.hierarchical,');

    const back = await runCli(['import', ws.path('launch'), '-o', 'back.crew.json', '--json'], { cwd: ws.dir });
    expect(back.code, describeResult(back)).toBe(0);
    const doc = JSON.parse(readFileSync(ws.path('back.crew.json'), 'utf8'));
    expect(doc.tasks.map((t: { id: string; context?: string[] }) => [t.id, t.context])).toEqual([['pricing', undefined], ['announcement', ['pricing']]]);
    expect(doc.agents.map((a: { role: string }) => a.role)).toEqual(['Market Analyst', 'Copywriter']);
  });

  it('--json gives files and summary; a non-empty target or a missing --to exits 2', async () => {
    ws = tempDir();
    const r = await runCli(['export', join(examplesDir, 'research-brief.crew.json'), '--to', 'crewai', ws.path('brief'), '--json'], { cwd: ws.dir });
    expect(r.code, describeResult(r)).toBe(0);
    const out = parseSingleJson(r);
    expect(out.files).toContain('src/research_brief/config/agents.yaml');
    expect(out.summary.map((s: { path: string }) => s.path)).toContain('agents.0.tools.1');

    const again = await runCli(['export', join(examplesDir, 'research-brief.crew.json'), '--to', 'crewai', ws.path('brief')], { cwd: ws.dir });
    expect(again.code, describeResult(again)).toBe(2);
    expect(again.stderr).toMatch(/is not empty/);
    const noTo = await runCli(['export', join(examplesDir, 'research-brief.crew.json'), ws.path('x')], { cwd: ws.dir });
    expect(noTo.code, describeResult(noTo)).toBe(2);
    expect(noTo.stderr).toMatch(/needs --to crewai/);
  });
});
