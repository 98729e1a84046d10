import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { importCrewAiProject } from '../../runtime/crewai/importProject';
import { describeResult, parseSingleJson, runCli, tempDir, type TempWorkspace } from '../cli/cliHarness';

/**
 * A flow method that could not be read becomes a stub, but the crew its Python kicks off is still the
 * project's: the stub lists it (`crews`), and `crewdeck export` writes it, so the export imports again.
 */
const flows = join(import.meta.dirname, '../fixtures/crewai/flows');
vi.setConfig({ testTimeout: 120_000 });
let ws: TempWorkspace | undefined;
afterEach(() => {
  ws?.remove();
  ws = undefined;
});

describe('export of a flow whose stub kicks off a crew', () => {
  it('the stub lists the crew, export writes it, and export → import gives the same flow and crews', async () => {
    ws = tempDir('crewdeck-stub-crews-');
    const project = ws.path('project');
    cpSync(join(flows, 'self_evaluation_loop'), project, { recursive: true });
    const main = join(project, 'src/self_evaluation_loop/main.py');
    // The review crew is now kicked off only inside a method the importer cannot read (an HTTP call).
    const source = readFileSync(main, 'utf8').replace(
      '        result = ReviewCrew().crew().kickoff(inputs={"post": self.state.post})\n',
      '        requests.post("https://hooks.example.invalid/review", json={"post": self.state.post})\n        result = ReviewCrew().crew().kickoff(inputs={"post": self.state.post})\n',
    );
    writeFileSync(main, `import requests\n${source}`);

    const first = await importCrewAiProject(project);
    const evaluate = first.flow!.methods.find((m) => m.name === 'evaluate_post')!.body;
    expect(evaluate.type === 'script' && evaluate.stub ? evaluate.crews : undefined).toEqual(['review_crew.crew.json']);

    const imported = await runCli(['import', project, '-o', 'imported', '--json'], { cwd: ws.dir });
    expect(imported.code, describeResult(imported)).toBe(0);
    const docs = parseSingleJson(imported).documents as { path: string; kind: string }[];
    const exported = await runCli(['export', docs[0]!.path, '--to', 'crewai', ws.path('exported'), '--json'], { cwd: ws.dir });
    expect(exported.code, describeResult(exported)).toBe(0);
    const files = parseSingleJson(exported).files as string[];
    expect(files.filter((f) => f.endsWith('crew.py')).sort()).toEqual([expect.stringMatching(/post_crew\/crew\.py$/), expect.stringMatching(/review_crew\/crew\.py$/)]);
    expect(existsSync(ws.path('exported/pyproject.toml'))).toBe(true);

    const back = await importCrewAiProject(ws.path('exported'));
    const byId = (list: typeof first.crews) => [...list].sort((a, b) => a.id.localeCompare(b.id));
    expect(byId(back.crews)).toEqual(byId(first.crews));
    // A stub's Python comes back as it was, but under the exporter's own `def` line and at its own line.
    const body = (methods: NonNullable<typeof first.flow>['methods']) =>
      methods.map((m) => (m.body.type === 'script' && m.body.stub ? { ...m, body: { ...m.body, stub: { ...m.body.stub, line: 0, python: m.body.stub.python.split('\n').slice(1).join('\n') } } } : m));
    expect(body(back.flow!.methods)).toEqual(body(first.flow!.methods));
  });
});
