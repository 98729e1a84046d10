import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { crewWarnings } from '../../shared/model/crewWarnings';
import { parseCrewDocument } from '../../shared/model/parse';
import { WorkspaceSettingsSchema } from '../../shared/model/workspace';
import type { CrewDocument } from '../../shared/model/crew';
import { CrewAiConfigKeyMissing, CrewAiPlainScript } from '../../runtime/crewai/crewAiErrors';
import { exportCrewAi } from '../../runtime/crewai/exportProject';
import { importCrewAiProject } from '../../runtime/crewai/importProject';
import { ofType, runCrew } from '../support/crewHarness';

/** One fixture per CrewAI pattern the importer once misread (issue 16); each is a small project of its own. */
const patterns = join(import.meta.dirname, '../fixtures/crewai/patterns');
const load = (name: string) => importCrewAiProject(join(patterns, name));

/** A scripted profile answering every agent with a line naming its role (and JSON for the JSON tasks). */
const settings = WorkspaceSettingsSchema.parse({
  version: 1,
  models: {
    profiles: {
      offline: {
        provider: 'scripted',
        model: 'patterns-offline',
        script: {
          rules: [
            { when: { any: 'Profile Acme' }, reply: '{"name": "Acme BV", "industry": "tools", "employees": null, "products": ["anvil"]}' },
            { when: { any: 'Score Acme' }, reply: '{"score": 80, "reason": "buys often"}' },
            { when: { any: 'Outline a book' }, reply: '{"chapters": ["The Bell Rock", "Longstone"]}' },
            { when: { system: '/You are ([^.]+)\\./' }, reply: 'Done, as asked.' },
          ],
        },
      },
    },
  },
});

const temps: string[] = [];
afterAll(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function runsOffline(doc: CrewDocument, inputs: Record<string, string>) {
  const { result, events } = await runCrew(doc, { forceProfile: 'offline', settings, inputs });
  expect(result.status).toBe('completed');
  expect(ofType(events, 'task.completed').map((e) => e.taskId)).toEqual(doc.tasks.map((t) => t.id));
  return events;
}

function valid(doc: CrewDocument): void {
  const parsed = parseCrewDocument(doc);
  expect(parsed.ok ? [] : parsed.problems).toEqual([]);
}

describe('CrewAI import patterns (test/fixtures/crewai/patterns)', () => {
  it('class-attribute LLMs: llm=self.llm resolves LLM(...) and ChatOpenAI(...) to the model, never a "self.llm" profile', async () => {
    const { doc, unmapped } = await load('class_attr_llm');
    valid(doc);
    expect(doc.agents.map((a) => a.llm)).toEqual([
      { provider: 'openai', model: 'gpt-4o', temperature: 0.1 },
      { provider: 'openai', model: 'gpt-4' },
    ]);
    expect(unmapped).toEqual([]);
    await runsOffline(doc, {});
    // Export writes the model back, not the Python attribute.
    const dir = mkdtempSync(join(tmpdir(), 'crewai-patterns-'));
    temps.push(dir);
    exportCrewAi(doc, join(dir, 'out'));
    const back = (await importCrewAiProject(join(dir, 'out')));
    expect(back.doc.agents.map((a) => a.llm)).toEqual([
      { provider: 'openai', model: 'gpt-4o', temperature: 0.1 },
      { provider: 'openai', model: 'gpt-4' },
    ]);
  });

  it('an unreadable class attribute becomes an unmapped item with its line, not a model profile name', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'crewai-patterns-'));
    temps.push(dir);
    cpSync(join(patterns, 'class_attr_llm'), dir, { recursive: true });
    const crewPy = join(dir, 'src/pricing_review/crew.py');
    writeFileSync(crewPy, readFileSync(crewPy, 'utf8').replace('llm = LLM(model="gpt-4o", temperature=0.1)', 'llm = make_llm(os.environ["MODEL"])'));
    const { doc, unmapped } = (await importCrewAiProject(dir));
    expect(doc.agents[0].llm).toBeUndefined();
    expect(unmapped).toEqual([
      {
        path: 'src/pricing_review/crew.py:21',
        item: 'pricing_analyst.llm: self.llm',
        why: 'self.llm is make_llm(...), not an LLM(...) or ChatOpenAI(...) this importer can read; choose the model in Crewdeck',
      },
    ]);
  });

  it('three @CrewBase classes in one crew.py give three crews, each with its own YAML and main.py inputs', async () => {
    const { crews, doc, unmapped } = await load('three_crews');
    expect(crews.map((c) => [c.id, c.name])).toEqual([
      ['collect_crew', "Collects the week's news"],
      ['write_crew', 'Writes the newsletter'],
      ['check_crew', 'Checks the newsletter'],
    ]);
    expect(doc).toBe(crews[0]);
    expect(crews.map((c) => c.agents.map((a) => a.id))).toEqual([['collector'], ['writer'], ['checker']]);
    expect(crews.map((c) => c.tasks.map((t) => t.id))).toEqual([['collect'], ['write'], ['check']]);
    expect(crews.map((c) => c.inputs)).toEqual([[{ name: 'beat', default: 'open source' }], [{ name: 'items' }], [{ name: 'letter' }]]);
    expect(unmapped).toEqual([]);
    for (const crew of crews) {
      valid(crew);
      await runsOffline(crew, { items: '- item', letter: 'Dear reader' });
    }
  });

  it('duplicate roles (two agent methods sharing one YAML config) are allowed, with a validate warning', async () => {
    const { doc, warnings, unmapped } = await load('duplicate_roles');
    valid(doc);
    expect(doc.agents.map((a) => [a.id, a.role])).toEqual([
      ['first_reviewer', 'Ticket Reviewer'],
      ['second_reviewer', 'Ticket Reviewer'],
    ]);
    expect(doc.tasks.map((t) => t.agentId)).toEqual(['first_reviewer', 'second_reviewer']);
    const expected = [{ path: 'agents.1.role', message: 'duplicate role "Ticket Reviewer" (also agent "first_reviewer"): delegation to this role reaches "first_reviewer" only' }];
    expect(crewWarnings(doc)).toEqual(expected);
    expect(warnings).toEqual([{ crewId: 'support_triage', warnings: expected }]);
    expect(unmapped).toEqual([]);
    await runsOffline(doc, { ticket: 'The app crashes on start.' });
  });

  it('an empty expected_output: > is accepted with a warning', async () => {
    const { doc, warnings } = await load('empty_expected_output');
    valid(doc);
    expect(doc.tasks[0].expectedOutput).toBe('');
    expect(warnings).toEqual([{ crewId: 'haiku_writer', warnings: [{ path: 'tasks.0.expectedOutput', message: 'empty expected output: the agent is not told what answer to give' }] }]);
    await runsOffline(doc, { season: 'autumn' });
  });

  it('pydantic: Field(..., description=) is required with a description, Optional[X] without default is required-nullable, output_json stays output_json', async () => {
    const { doc, unmapped } = await load('pydantic_outputs');
    valid(doc);
    expect(unmapped).toEqual([]);
    const [profile, score] = doc.tasks;
    expect(profile.output).toEqual({
      format: 'json',
      crewai: 'output_json',
      schema: {
        type: 'object',
        properties: {
          name: { type: 'string', description: "The company's legal name" },
          industry: { type: 'string', description: 'Main industry' },
          employees: { type: ['integer', 'null'] },
          website: { type: 'string' },
          products: { type: 'array', items: { type: 'string' }, description: 'Product names' },
        },
        required: ['name', 'industry', 'employees'],
      },
    });
    expect(score.output).toEqual({
      format: 'json',
      schema: { type: 'object', properties: { score: { type: 'integer', description: '0 to 100' }, reason: { type: 'string' } }, required: ['score', 'reason'] },
    });
    const events = await runsOffline(doc, { company: 'Acme' });
    expect(ofType(events, 'task.completed').map((e) => e.json)).toEqual([
      { name: 'Acme BV', industry: 'tools', employees: null, products: ['anvil'] },
      { score: 80, reason: 'buys often' },
    ]);
    // Round trip: output_json and output_pydantic come back as they were, with required, nullable and descriptions.
    const dir = mkdtempSync(join(tmpdir(), 'crewai-patterns-'));
    temps.push(dir);
    const exported = exportCrewAi(doc, join(dir, 'out'));
    const crewPy = exported.files.find((f) => f.endsWith('crew.py'));
    expect(crewPy).toBeDefined();
    const text = readFileSync(join(dir, 'out', crewPy!), 'utf8');
    expect(text).toContain('output_json=ProfileOutput');
    expect(text).toContain('output_pydantic=ScoreOutput');
    expect(text).toContain('employees: Optional[int]\n');
    expect(text).toContain(`name: str = Field(..., description="The company's legal name")`);
    expect((await importCrewAiProject(join(dir, 'out'))).doc.tasks.map((t) => t.output)).toEqual(doc.tasks.map((t) => t.output));
  });

  it('knowledge_sources (PDF, text file and CSV files, a string) become crew and agent knowledge', async () => {
    const { doc, unmapped } = await load('knowledge_sources');
    valid(doc);
    expect(unmapped).toEqual([]);
    expect(doc.knowledge).toEqual([
      { type: 'file', path: 'knowledge/handbook.pdf' },
      { type: 'file', path: 'knowledge/holidays.txt' },
      { type: 'text', name: 'office_hours', text: 'The office is open 9:00 to 17:00, Monday to Friday.' },
    ]);
    expect(doc.agents[0].knowledge).toEqual([{ type: 'file', path: 'knowledge/prices.csv' }]);
    // The text sources alone run here (the file sources name files of the CrewAI project's knowledge/ folder).
    await runsOffline({ ...doc, knowledge: doc.knowledge!.filter((k) => k.type === 'text'), agents: doc.agents.map((a) => ({ ...a, knowledge: undefined })) }, { question: 'When do you open?' });
  });

  it('a local-variable tool (search_tool = SerperDevTool()) is reported under its real class', async () => {
    const { doc, unmapped } = await load('local_variable_tool');
    valid(doc);
    expect(doc.agents[0].tools.map((t) => t.tool)).toEqual(['read_file']);
    expect(unmapped).toEqual([
      {
        path: 'src/trend_scout/crew.py:14',
        item: 'scout.tools: search_tool',
        why: 'CrewAI tool SerperDevTool has no Crewdeck built-in equivalent (built-ins: read_file, write_file, list_directory, http_request, calculator, current_time)',
      },
      {
        path: 'src/trend_scout/crew.py:14',
        item: 'scout.tools: FileReadTool(file_path="notes.md")',
        why: 'tool setting with no equivalent on the read_file built-in; the tool is imported without it',
      },
    ]);
    await runsOffline(doc, { field: 'batteries' });
  });

  it("a custom @tool function imported from the project is named as the project's own tool", async () => {
    const { doc, unmapped, sourceFiles } = await load('custom_tool_function');
    valid(doc);
    expect(unmapped).toEqual([
      {
        path: 'src/trip_planner/crew.py:14',
        item: 'planner.tools: weather_lookup',
        why: "weather_lookup is the project's own tool (custom Python tool (src/trip_planner/tools/weather.py)): Crewdeck does not run Python code — rebuild it as an MCP server (mcp:<server>/<tool>) or use a built-in tool",
      },
    ]);
    expect(sourceFiles).toContain('src/trip_planner/tools/weather.py');
    await runsOffline(doc, { city: 'Ghent' });
  });

  it('a plain-script project (Agent/Task/Crew built without @CrewBase) gets an error saying how it is built', async () => {
    let error: unknown;
    try {
      await load('plain_script');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(CrewAiPlainScript);
    expect((error as CrewAiPlainScript).file).toBe('main.py');
    expect((error as CrewAiPlainScript).line).toBe(9);
    expect((error as Error).message).toMatch(/^main\.py:9 builds the crew in a plain Python script: it creates Agent\(\.\.\.\), Task\(\.\.\.\) and Crew\(\.\.\.\) objects directly instead of in a @CrewBase class/);
    expect((error as Error).message).not.toMatch(/agentId/);
  });

  it("a key crew.py loads but the YAML lacks is one error in CrewAI's terms", async () => {
    let error: unknown;
    try {
      await load('missing_yaml_key');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(CrewAiConfigKeyMissing);
    expect((error as Error).message).toBe(
      `src/email_sorter/crew.py:13: agents_config['email_filter_agent'] is not in agents.yaml (src/email_sorter/config/agents.yaml defines "email_sorter_agent")`,
    );
  });

  it('a CrewAI Flow project: every crew under crews/ becomes a crew document, and the Flow class the flow (test/crewai/importFlow.test.ts)', async () => {
    const { crews, unmapped, flow } = (await importCrewAiProject(join(patterns, '../flows/book_writer')));
    expect(crews.map((c) => [c.id, c.name, c.inputs?.map((i) => i.name)])).toEqual([
      ['chapter_crew', 'Chapter crew', ['title', 'topic']],
      ['outline_crew', 'Outline crew', ['topic', 'goal']],
    ]);
    expect(unmapped).toEqual([]);
    expect(flow?.id).toBe('book_writer');
    for (const crew of crews) {
      valid(crew);
      await runsOffline(crew, { title: 'The Bell Rock', topic: 'lighthouses', goal: 'a short read' });
    }
  });
});
