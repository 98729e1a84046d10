import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { validateCrewFile } from '../../runtime/document/loadDocument';
import { DocumentInvalid } from '../../runtime/errors';
import { ModelConfigInvalid } from '../../runtime/llm/resolveModel';
import { ToolUnavailable } from '../../runtime/crew/roster';
import { crew, runCrew, scripted, tempWorkspace } from '../support/crewHarness';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

const llm = scripted({ default: 'fine' });
const base = {
  agents: [{ id: 'a', role: 'A', goal: 'g', llm }],
  tasks: [
    { id: 'first', description: 'd', expectedOutput: 'x', agentId: 'a' },
    { id: 'second', description: 'd', expectedOutput: 'x', agentId: 'a' },
  ],
};

describe('problems found before a run opens', () => {
  it('validate reports regex flags, escaping output files and JSON Schemas that do not compile', () => {
    const dir = mkdtempSync(join(tmpdir(), 'crewdeck-validate-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'c.crew.json');
    writeFileSync(
      file,
      JSON.stringify({
        kind: 'crew',
        version: 1,
        id: 'c',
        name: 'C',
        agents: [{ id: 'a', role: 'A', goal: 'g' }],
        tasks: [
          {
            id: 't',
            description: 'd',
            expectedOutput: 'x',
            agentId: 'a',
            guardrails: [{ type: 'regex', pattern: 'a', flags: 'gg' }, { type: 'regex', pattern: '\\-', flags: 'u' }],
            outputFile: '../../escape.txt',
          },
          { id: 'u', description: 'd', expectedOutput: 'x', agentId: 'a', outputFile: '.crewdeck/crewdeck.db', output: { format: 'json', schema: { type: 'objekt' } } },
        ],
      }),
    );
    const lines = validateCrewFile(file).map((p) => `${p.path}: ${p.message}`);
    expect(lines).toContainEqual(expect.stringMatching(/^tasks\.0\.guardrails\.0\.flags: is not a valid regular expression/));
    expect(lines).toContainEqual(expect.stringMatching(/^tasks\.0\.guardrails\.1\.pattern: is not a valid regular expression/));
    expect(lines).toContain('tasks.0.outputFile: "../../escape.txt" leaves the workspace; use a path inside it');
    expect(lines).toContain('tasks.1.outputFile: ".crewdeck/crewdeck.db" is inside .crewdeck/, Crewdeck\'s own data folder');
    // Schemas are compiled once the shape is valid; fix the shape problems and the schema shows up.
    writeFileSync(file, JSON.stringify({ kind: 'crew', version: 1, id: 'c', name: 'C', agents: [{ id: 'a', role: 'A', goal: 'g' }], tasks: [{ id: 'u', description: 'd', expectedOutput: 'x', agentId: 'a', output: { format: 'json', schema: { type: 'objekt' } } }] }));
    expect(validateCrewFile(file).map((p) => p.path)).toEqual(['tasks.0.output.schema']);
  });

  it('an unknown judge model, task tool or broken schema stops the run before it starts', async () => {
    const ws = tempWorkspace();
    cleanups.push(ws.remove);
    const judged = crew({ ...base, tasks: [base.tasks[0], { ...base.tasks[1], guardrails: [{ type: 'llm', criterion: 'polite', llm: 'no-such-profile' }] }] });
    await expect(runCrew(judged, { workspace: ws })).rejects.toBeInstanceOf(ModelConfigInvalid);
    const tooled = crew({ ...base, tasks: [base.tasks[0], { ...base.tasks[1], tools: [{ tool: 'mcp:files/read' }] }] });
    await expect(runCrew(tooled, { workspace: ws })).rejects.toThrow(ToolUnavailable);
    await expect(runCrew(tooled, { workspace: ws })).rejects.toThrow('tasks.1.tools.0.tool: tool "mcp:files/read" is not available');
    const schema = crew({ ...base, tasks: [base.tasks[0], { ...base.tasks[1], output: { format: 'json', schema: { type: 'objekt' } } }] });
    await expect(runCrew(schema, { workspace: ws })).rejects.toBeInstanceOf(DocumentInvalid);
    expect(ws.store.listRuns()).toEqual([]); // no run was opened, no model was called
  });
});
