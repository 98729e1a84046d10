import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { crewWarnings } from '../../shared/model/crewWarnings';
import { parseCrewDocument } from '../../shared/model/parse';
import { WorkspaceSettingsSchema } from '../../shared/model/workspace';
import type { CrewDocument } from '../../shared/model/crew';
import { CrewAiConfigKeyMissing } from '../../runtime/crewai/crewAiErrors';
import { PYTHON_TOOLS_RUN } from '../../runtime/crewai/crews/mapTool';
import { exportCrewAi } from '../../runtime/crewai/exportProject';
import { importCrewAiProject } from '../../runtime/crewai/importProject';
import { ofType, runCrew } from '../support/crewHarness';
import { runImportedCrew } from '../support/importedCrew';

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
    const { doc, unmapped, profiles } = await load('class_attr_llm');
    valid(doc);
    // Each model is a profile named by the model string (and the settings that set it apart).
    expect(doc.agents.map((a) => a.llm)).toEqual(['gpt-4o (temperature 0.1)', 'openai/gpt-4']);
    expect(profiles).toEqual({
      'gpt-4o (temperature 0.1)': { provider: 'openai', model: 'gpt-4o', temperature: 0.1 },
      'openai/gpt-4': { provider: 'openai', model: 'gpt-4' },
    });
    expect(unmapped).toEqual([]);
    await runsOffline(doc, {});
    // Export writes the model back, not the Python attribute.
    const dir = mkdtempSync(join(tmpdir(), 'crewai-patterns-'));
    temps.push(dir);
    exportCrewAi(doc, join(dir, 'out'));
    const back = await importCrewAiProject(join(dir, 'out'));
    expect(back.doc.agents.map((a) => a.llm)).toEqual(doc.agents.map((a) => a.llm));
  });

  it('an unreadable class attribute becomes an unmapped item with its line, not a model profile name', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'crewai-patterns-'));
    temps.push(dir);
    cpSync(join(patterns, 'class_attr_llm'), dir, { recursive: true });
    const crewPy = join(dir, 'src/pricing_review/crew.py');
    writeFileSync(crewPy, readFileSync(crewPy, 'utf8').replace('llm = LLM(model="gpt-4o", temperature=0.1)', 'llm = make_llm(os.environ["MODEL"])'));
    const { doc, unmapped } = (await importCrewAiProject(dir));
    expect(doc.agents[0]!.llm).toBeUndefined();
    expect(unmapped).toEqual([
      {
        path: 'src/pricing_review/crew.py:22',
        item: 'pricing_analyst.llm: (make_llm is not defined where it is used)',
        why: "the model is not known without running the Python (make_llm is not defined where it is used); the agent uses the workspace's default model until one is chosen",
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
    expect(doc.tasks[0]!.expectedOutput).toBe('');
    expect(warnings).toEqual([{ crewId: 'haiku_writer', warnings: [{ path: 'tasks.0.expectedOutput', message: 'empty expected output: the agent is not told what answer to give' }] }]);
    await runsOffline(doc, { season: 'autumn' });
  });

  it('pydantic: Field(..., description=) is required with a description, Optional[X] without default is required-nullable, output_json stays output_json', async () => {
    const { doc, unmapped } = await load('pydantic_outputs');
    valid(doc);
    expect(unmapped).toEqual([]);
    const [profile, score] = doc.tasks;
    expect(profile!.output).toEqual({
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
    expect(score!.output).toEqual({
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
    expect(doc.agents[0]!.knowledge).toEqual([{ type: 'file', path: 'knowledge/prices.csv' }]);
    // The text sources alone run here (the file sources name files of the CrewAI project's knowledge/ folder).
    await runsOffline({ ...doc, knowledge: doc.knowledge!.filter((k) => k.type === 'text'), agents: doc.agents.map((a) => ({ ...a, knowledge: undefined })) }, { question: 'When do you open?' });
  });

  it('a local-variable tool (search_tool = SerperDevTool()) is reported under its real class', async () => {
    const { doc, unmapped, files } = await load('local_variable_tool');
    valid(doc);
    // The variable is followed to its class; FileReadTool's file_path pins the tool to that file.
    expect(doc.agents[0]!.tools.map((t) => [t.tool, t.config])).toEqual([['web_search', { provider: 'serper' }], ['read_file', { path: 'notes.md' }]]);
    expect(unmapped).toEqual([]);
    // The file the tool is pinned to comes along into the workspace, at the path it has in the project.
    expect(files.map((f) => f.path)).toEqual(['notes.md']);
    await runsOffline(doc, { field: 'batteries' });
  });

  it('every crewai_tools class with its arguments, written inline, in local variables and as YAML names of @tool methods (issue 27)', async () => {
    const { doc, unmapped, files } = await load('tool_classes');
    valid(doc);
    const tools = Object.fromEntries(doc.agents.map((a) => [a.id, a.tools.map((t) => [t.tool, t.config ?? null])]));
    expect(tools).toEqual({
      // Inline in Agent(tools=[...]).
      web_researcher: [
        ['web_search', { provider: 'serper', resultCount: 5, searchType: 'news', country: 'be', location: 'Ghent, Belgium', locale: 'nl' }],
        ['web_search', { provider: 'tavily', resultCount: 3, searchType: 'news' }],
        ['web_search', { provider: 'brave', resultCount: 7, country: 'FR' }],
        ['web_search', { provider: 'exa', resultCount: 4 }],
        ['scrape_website', { url: 'https://example.com/blog' }],
        ['scrape_website', { variant: 'element', url: 'https://example.com/prices', selector: 'table.prices' }],
        ['website_search', { url: 'https://docs.example.com/' }],
        // A scraping service's class: Crewdeck fetches the page itself (exported as ScrapeWebsiteTool()).
        ['scrape_website', null],
      ],
      // Local variables, each pinned to its file.
      file_clerk: [
        ['read_file', { path: 'data/jobs.md' }],
        ['list_directory', { recursive: true, path: 'data' }],
        ['write_file', { argumentStyle: 'crewai' }],
        ['file_search', { fileType: 'csv', path: 'data/sales.csv' }],
        ['file_search', { fileType: 'txt', path: 'data/notes.txt' }],
        ['file_search', { fileType: 'json', path: 'data/catalog.json' }],
        ['file_search', { fileType: 'docx', path: 'data/contract.docx' }],
        ['file_search', { fileType: 'mdx', path: 'data/guide.mdx' }],
        ['file_search', { fileType: 'xml', path: 'data/feed.xml' }],
        ['file_search', { fileType: 'directory', path: 'data' }],
      ],
      // agents.yaml `tools:` names: two @tool methods of the class (followed to what they return) and a snake-case class name.
      archivist: [
        ['web_search', { provider: 'serper', resultCount: 3, searchType: 'news' }],
        ['file_search', { fileType: 'pdf', path: 'data/handbook.pdf' }],
        ['scrape_website', null],
      ],
    });
    expect(unmapped).toEqual([]);
    // Every pinned file comes along at its project path (the directory tools bring the folder).
    expect(files.map((f) => f.path).sort()).toEqual(['data/catalog.json', 'data/contract.docx', 'data/feed.xml', 'data/guide.mdx', 'data/handbook.pdf', 'data/jobs.md', 'data/notes.txt', 'data/sales.csv']);
    // Export writes each back as its crewai_tools class with its arguments, and importing that gives the same tools.
    const dir = mkdtempSync(join(tmpdir(), 'crewai-patterns-'));
    temps.push(dir);
    // The export brings the pinned files along from the workspace they were imported into (here: the project itself).
    const exported = exportCrewAi(doc, join(dir, 'out'), { workspace: join(patterns, 'tool_classes') });
    const text = readFileSync(join(dir, 'out', exported.files.find((f) => f.endsWith('crew.py'))!), 'utf8');
    for (const call of ['SerperDevTool(n_results=5, search_type="news"', 'TavilySearchTool(', 'BraveSearchTool(', 'EXASearchTool(', 'ScrapeElementFromWebsiteTool(', 'WebsiteSearchTool(', 'FileReadTool(file_path="data/jobs.md")', 'DirectoryReadTool(', 'FileWriterTool(', 'CSVSearchTool(csv="data/sales.csv")', 'TXTSearchTool(', 'JSONSearchTool(', 'DOCXSearchTool(', 'MDXSearchTool(', 'XMLSearchTool(', 'DirectorySearchTool(', 'PDFSearchTool(pdf="data/handbook.pdf")', 'ScrapeWebsiteTool(']) {
      expect(text).toContain(call);
    }
    const back = await importCrewAiProject(join(dir, 'out'));
    expect(back.unmapped).toEqual([]);
    expect(back.doc.agents.map((a) => a.tools)).toEqual(doc.agents.map((a) => a.tools));
    await runsOffline(doc, { topic: 'archives' });
  });

  it("a custom @tool function imported from the project is named as the project's own tool", async () => {
    const result = await load('custom_tool_function');
    const { doc, unmapped, sourceFiles } = result;
    valid(doc);
    // A @tool function of the project runs through the project's Python tool server (the bridge), by its Python identifier.
    expect(PYTHON_TOOLS_RUN).toBe(true);
    expect(unmapped).toEqual([]);
    expect(doc.agents[0]!.tools.map((t) => t.tool)).toEqual(['mcp:custom-tool-function-tools/weather_lookup']);
    expect(result.mcpServers).toEqual({ 'custom-tool-function-tools': { transport: 'python', project: join(patterns, 'custom_tool_function'), path: ['src'], modules: ['trip_planner.tools.weather'] } });
    expect(sourceFiles).toContain('src/trip_planner/tools/weather.py');
    const { result: run } = await runImportedCrew(result, doc, settings.models.profiles.offline!, { inputs: { city: 'Ghent' } });
    expect(run.status).toBe('completed');
  });

  it('a plain-script project (Agent/Task/Crew built in module code, configs loaded with yaml.safe_load) imports as a crew', async () => {
    const { doc, unmapped } = await load('plain_script');
    valid(doc);
    expect(doc.agents.map((a) => [a.id, a.role])).toEqual([['summariser', 'Inbox Summariser']]);
    expect(doc.tasks.map((t) => [t.id, t.agentId, t.description])).toEqual([['digest', 'summariser', 'Summarise these emails: {emails}']]);
    expect(doc.inputs).toEqual([{ name: 'emails' }]);
    expect(unmapped).toEqual([]);
    await runsOffline(doc, { emails: 'Hi, the meeting moved to 3pm.' });
  });

  it("a key crew.py loads but the YAML lacks is one error in CrewAI's terms", async () => {
    let error: unknown;
    try {
      await load('missing_yaml_key');
    } catch (e) {
      error = e;
    }
    // Its only crew is left out, so nothing is imported: the error names the key, the file and what it defines.
    expect(error).toBeInstanceOf(CrewAiConfigKeyMissing);
    expect((error as Error).message).toBe(
      `src/email_sorter/crew.py:14: agents_config['email_filter_agent'] is not in agents.yaml (src/email_sorter/config/agents.yaml defines "email_sorter_agent")`,
    );
  });

  it('a CrewAI Flow project: every crew under crews/ becomes a crew document, and the Flow class the flow (test/crewai/importFlow.test.ts)', async () => {
    const { crews, unmapped, flow } = (await importCrewAiProject(join(patterns, '../flows/book_writer')));
    expect(crews.map((c) => [c.id, c.name, c.inputs?.map((i) => i.name)])).toEqual([
      ['chapter_crew', 'Chapter crew', ['topic', 'title']],
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
