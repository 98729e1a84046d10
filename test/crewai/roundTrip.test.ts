import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CrewDocumentSchema, type CrewDocument } from '../../shared/model/crew';
import type { InlineModel, ModelRef } from '../../shared/model/modelRef';
import type { ToolRef } from '../../shared/model/tool';
import { crewAiFromToolRef, toolRefFromCrewAi } from '../../runtime/crewai/crewAiTools';
import { CrewAiExportFailed } from '../../runtime/crewai/crewAiErrors';
import { exportCrewAi, exportCrewAiCrews } from '../../runtime/crewai/exportProject';
import { loadCrewFile } from '../../runtime/document/loadDocument';
import { importCrewAiProject } from '../../runtime/crewai/importProject';
import type { UnmappedItem } from '../../runtime/crewai/unmapped';
import { crew } from '../support/crewHarness';

const repo = join(import.meta.dirname, '../..');
const temps: string[] = [];
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'crewai-export-'));
  temps.push(dir);
  return dir;
}

/**
 * The crew as CrewAI can hold it: every path the export summary names is removed (defaults come back
 * through the schema), and placeholders the crew did not declare become inputs (main.py needs them).
 */
function representable(doc: CrewDocument, summary: UnmappedItem[]): CrewDocument {
  const copy = structuredClone(doc) as Record<string, unknown>;
  const paths = summary.map((s) => s.path.split('.')).sort((a, b) => (b.join('.') > a.join('.') ? 1 : -1));
  // Deepest / highest indexes first, so removing an array element does not shift the next one.
  paths.sort((a, b) => b.length - a.length || Number(b.at(-1)) - Number(a.at(-1)));
  for (const path of paths) {
    let node: any = copy;
    for (const part of path.slice(0, -1)) node = node?.[part];
    const last = path.at(-1)!;
    if (Array.isArray(node)) node.splice(Number(last), 1);
    else if (node) delete node[last];
  }
  const parsed = CrewDocumentSchema.parse(copy);
  // A tool comes back as CrewAI's class reads it (the tools' mapping table): DirectoryReadTool lists recursively.
  const back = (ref: ToolRef): ToolRef => {
    const out = crewAiFromToolRef(ref);
    if (!out) return ref;
    const again = toolRefFromCrewAi(out.className, out.kwargs);
    return 'ref' in again ? { ...again.ref, requiresApproval: ref.requiresApproval } : ref;
  };
  for (const a of parsed.agents) a.tools = a.tools.map(back);
  for (const t of parsed.tasks) if (t.tools) t.tools = t.tools.map(back);
  const declared = new Set((parsed.inputs ?? []).map((i) => i.name));
  const texts = [...parsed.agents.flatMap((a) => [a.role, a.goal, a.backstory]), ...parsed.tasks.flatMap((t) => [t.description, t.expectedOutput, t.outputFile ?? ''])];
  for (const text of texts) {
    for (const m of text.matchAll(/\{([A-Za-z_][A-Za-z0-9_-]*)\}/g)) {
      if (!declared.has(m[1]!)) {
        declared.add(m[1]!);
        (parsed.inputs ??= []).push({ name: m[1]! });
      }
    }
  }
  return parsed;
}

/** Exports a crew (with the workspace's model profiles and files, when it has them) and imports the project again. */
async function roundTrip(doc: CrewDocument, from: { profiles?: Record<string, InlineModel>; workspace?: string } = {}) {
  const dir = tempDir();
  const exported = exportCrewAi(doc, dir, from);
  const back = await importCrewAiProject(dir);
  return { dir, exported, back };
}

/**
 * The models of a crew as an import names them: each inline model is the profile the import made with
 * the same settings (every one must have one), a profile name stays.
 */
function withProfiles(doc: CrewDocument, profiles: Record<string, InlineModel>): CrewDocument {
  const name = (ref: ModelRef | undefined): ModelRef | undefined => {
    if (ref === undefined || typeof ref === 'string') return ref;
    const found = Object.entries(profiles).find(([, m]) => JSON.stringify(sorted(m)) === JSON.stringify(sorted(ref)));
    expect(found, `a profile for ${JSON.stringify(ref)} among ${JSON.stringify(profiles)}`).toBeDefined();
    return found![0];
  };
  const copy = structuredClone(doc);
  for (const a of copy.agents) if (a.llm !== undefined) a.llm = name(a.llm);
  if (copy.manager && 'llm' in copy.manager && copy.manager.llm !== undefined) copy.manager.llm = name(copy.manager.llm);
  if (copy.planning?.llm !== undefined) copy.planning.llm = name(copy.planning.llm);
  return copy;
}

const sorted = (m: object) => Object.fromEntries(Object.entries(m).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : 1)));

const HAND_WRITTEN: CrewDocument[] = [
  crew({
    id: 'every-field',
    name: 'Every CrewAI field',
    description: 'Uses each field that CrewAI has: "quotes", back\\slashes and\nnewlines included.',
    maxRpm: 40,
    memory: { enabled: true },
    planning: { enabled: true, llm: { provider: 'openai', model: 'gpt-4.1-mini', temperature: 0 } },
    inputs: [{ name: 'topic', default: 'tidal power' }, { name: 'audience' }, { name: 'unused', default: 'x' }],
    agents: [
      {
        id: 'researcher',
        role: 'Researcher of {topic}',
        goal: 'Find facts about {topic}\nfor {audience}',
        backstory: 'Multi-line\nbackstory: with a colon, # a hash and {topic}.',
        llm: { provider: 'openai', model: 'llama3', baseUrl: 'http://localhost:11434/v1', apiKeyEnv: 'LOCAL_KEY', temperature: 0.3, maxTokens: 900, stream: true, timeoutMs: 45_000 },
        tools: [{ tool: 'read_file', resultAsAnswer: true, maxUsageCount: 3 }, { tool: 'list_directory', config: { recursive: true } }],
        allowDelegation: true,
        maxIter: 9,
        maxRpm: 12,
        maxExecutionTimeMs: 90_500,
        memory: false,
        cache: false,
        respectContextWindow: false,
      },
      { id: 'writer', role: 'Writer', goal: 'Write', llm: 'gpt-4o-mini', tools: [{ tool: 'write_file', config: { argumentStyle: 'crewai' } }] },
      { id: 'editor-2', role: 'Editor', goal: 'Edit', llm: { provider: 'openai', model: 'gpt-4o' } },
    ],
    tasks: [
      { id: 'collect', name: 'Collect facts', description: 'Collect facts on {topic}.', expectedOutput: 'Facts.', agentId: 'researcher', async: true, context: 'none' },
      {
        id: 'draft-1',
        description: 'Draft for {audience}.',
        expectedOutput: 'A draft.',
        agentId: 'writer',
        context: ['collect'],
        humanInput: true,
        outputFile: 'out/{topic}.md',
        output: { format: 'markdown' },
        guardrails: [{ type: 'llm', criterion: 'Mentions {topic}.' }, { type: 'llm', criterion: 'No jargon.' }],
        guardrailMaxRetries: 5,
        tools: [{ tool: 'read_file' }],
      },
      {
        id: 'summary',
        description: 'Summarise as JSON.',
        expectedOutput: 'JSON.',
        agentId: 'editor-2',
        guardrailMaxRetries: 0,
        output: { format: 'json', schema: { type: 'object', properties: { title: { type: 'string' }, points: { type: 'array', items: { type: 'string' } }, score: { type: 'number' }, ok: { type: 'boolean' }, n: { type: 'integer' } }, required: ['title', 'points'] } },
      },
    ],
  }),
  crew({
    id: 'managed',
    name: 'Managed by an agent',
    process: 'hierarchical',
    manager: { agentId: 'lead' },
    agents: [
      { id: 'analyst', role: 'Analyst', goal: 'Analyse' },
      { id: 'lead', role: 'Lead', goal: 'Lead', allowDelegation: true, llm: { provider: 'openai', model: 'gpt-4o' } },
      { id: 'writer', role: 'Writer', goal: 'Write' },
    ],
    tasks: [
      { id: 'analyse', description: 'Analyse.', expectedOutput: 'Analysis.' },
      { id: 'write', description: 'Write.', expectedOutput: 'Text.', agentId: 'writer', context: ['analyse'] },
    ],
  }),
  crew({
    id: 'crewdeck-only',
    name: 'Crewdeck-only settings',
    process: 'hierarchical',
    manager: { llm: { provider: 'scripted', model: 'm', script: { default: 'ok' } }, delegateTo: 'all' },
    memory: { enabled: true, scope: 'team', commit: 'immediate' },
    knowledge: [{ type: 'text', name: 'facts', text: 'The sky is blue.' }],
    knowledgeSettings: { limit: 3 },
    layout: { a: { x: 1, y: 2 } },
    agents: [
      {
        id: 'a',
        role: 'A',
        goal: 'G',
        llm: { provider: 'openai', model: 'gpt-4o', nativeTools: false },
        tools: [{ tool: 'calculator' }, { tool: 'write_file', requiresApproval: true, config: { allowDocumentWrites: true } }, { tool: 'mcp:files/list' }],
        skills: [{ name: 's', instructions: 'Do it well.' }],
      },
    ],
    tasks: [
      { id: 't1', description: 'One.', expectedOutput: 'One.', agentId: 'a' },
      {
        id: 't2',
        description: 'Two.',
        expectedOutput: 'Two.',
        agentId: 'a',
        condition: { type: 'contains', text: 'One' },
        tests: { checks: [{ type: 'contains', text: 'Two' }] },
        guardrails: [{ type: 'regex', pattern: '^T' }, { type: 'llm', criterion: 'Short.', llm: 'judge' }, { type: 'length', max: 100 }],
        output: { format: 'json', schema: { type: 'object', properties: { nested: { type: 'object' } } } },
      },
    ],
  }),
];

describe('CrewAI export → import round trip', async () => {
  const examples = ['research-brief', 'product-launch'].map((name) => CrewDocumentSchema.parse(JSON.parse(readFileSync(join(repo, 'examples', `${name}.crew.json`), 'utf8'))));
  // Imported crews keep the project they came from: its model profiles, and its files (knowledge), which the export brings along.
  const imported = async (dir: string) => {
    const result = await importCrewAiProject(dir);
    return result.crews.map((doc) => ({ doc, from: { profiles: result.profiles, workspace: dir } }));
  };
  const fixtures = (await Promise.all(['market_research', 'launch_campaign'].map((name) => imported(join(repo, 'test/fixtures/crewai', name))))).flat();
  // One fixture per import pattern (issue 16); a project with several crews gives each of them.
  const patterns = (
    await Promise.all(
      ['class_attr_llm', 'three_crews', 'duplicate_roles', 'empty_expected_output', 'pydantic_outputs', 'knowledge_sources', 'local_variable_tool', 'tool_classes', 'custom_tool_function', 'plain_script'].map((name) =>
        imported(join(repo, 'test/fixtures/crewai/patterns', name)),
      ),
    )
  ).flat();
  fixtures.push(...patterns);
  const cases = [...[...examples, ...HAND_WRITTEN].map((doc) => ({ doc, from: {} })), ...fixtures];

  it.each(cases.map((c) => [c.doc.id, c] as const))('%s: every CrewAI-representable field survives', async (_id, { doc, from }) => {
    const { exported, back } = await roundTrip(doc, from);
    expect(back.doc).toEqual(withProfiles(representable(doc, exported.summary), back.profiles));
    // Profiles the import made come back as they were.
    for (const [name, model] of Object.entries(back.profiles)) if ((from as { profiles?: Record<string, InlineModel> }).profiles?.[name]) expect(model).toEqual((from as { profiles: Record<string, InlineModel> }).profiles[name]);
    expect(back.unmapped).toEqual([]);
    if (doc.id === 'every-field') expect(exported.summary).toEqual([]);
  });

  it('lists what CrewAI cannot hold in the summary (and as YAML comments) instead of dropping it silently', async () => {
    const doc = HAND_WRITTEN[2];
    const { dir, exported } = await roundTrip(doc!);
    const paths = exported.summary.map((s) => s.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        'manager.llm', 'manager.delegateTo', 'memory.scope', 'memory.commit', 'knowledgeSettings', 'layout',
        'agents.0.llm.nativeTools', 'agents.0.tools.0', 'agents.0.tools.1.requiresApproval', 'agents.0.tools.1.config', 'agents.0.tools.2', 'agents.0.skills',
        'tasks.1.condition', 'tasks.1.tests', 'tasks.1.guardrails.0', 'tasks.1.guardrails.1.llm', 'tasks.1.guardrails.2', 'tasks.1.output',
      ]),
    );
    const tasksYaml = readFileSync(join(dir, 'src/crewdeck_only/config/tasks.yaml'), 'utf8');
    expect(tasksYaml).toMatch(/# +tasks\.1\.guardrails\.0 guardrail \(regex\)/);
    const crewPy = readFileSync(join(dir, 'src/crewdeck_only/crew.py'), 'utf8');
    expect(crewPy).toMatch(/# +layout /);
  });

  it('writes a CrewAI project layout with a @CrewBase class', async () => {
    const { dir, exported } = await roundTrip(HAND_WRITTEN[0]!);
    expect(exported.packageName).toBe('every_field');
    expect(exported.files.sort()).toEqual(
      ['pyproject.toml', 'src/every_field/__init__.py', 'src/every_field/config/agents.yaml', 'src/every_field/config/tasks.yaml', 'src/every_field/crew.py', 'src/every_field/main.py', 'src/every_field/tools/__init__.py'].sort(),
    );
    const crewPy = readFileSync(join(dir, 'src/every_field/crew.py'), 'utf8');
    expect(crewPy).toContain('@CrewBase\nclass EveryField:');
    expect(crewPy).toMatch(/@agent\n    def researcher\(self\) -> Agent:/);
    expect(crewPy).toMatch(/@task\n    def draft_1\(self\) -> Task:/);
    expect(crewPy).toContain('process=Process.sequential,');
    expect(crewPy).toContain('tools=[FileReadTool(result_as_answer=True, max_usage_count=3), DirectoryReadTool()]');
    expect(crewPy).toContain('api_key=os.environ.get("LOCAL_KEY")');
    expect(crewPy).toContain('class SummaryOutput(BaseModel):');
    const main = readFileSync(join(dir, 'src/every_field/main.py'), 'utf8');
    expect(main).toContain('"topic": "tidal power",');
    expect(readFileSync(join(dir, 'pyproject.toml'), 'utf8')).toContain('name = "every-field"');
  });

  it('refuses a folder that already has files unless asked to overwrite', async () => {
    const dir = tempDir();
    exportCrewAi(HAND_WRITTEN[1]!, dir);
    expect(() => exportCrewAi(HAND_WRITTEN[1]!, dir)).toThrow(CrewAiExportFailed);
    expect(() => exportCrewAi(HAND_WRITTEN[1]!, dir, { overwrite: true })).not.toThrow();
    expect(readdirSync(dir).sort()).toEqual(['pyproject.toml', 'src']);
  });

  it("keeps a crew's text inside comments and docstrings: quotes and line breaks (CR, LS too) never become code in crew.py, main.py or YAML", async () => {
    const hostile = crew({
      id: 'hostile',
      name: 'Say "hi"""\nimport os; os.system("PWNED")\n"\u2028injected: yes',
      inputs: [{ name: 'topic', description: 'about\rimport os; os.system("PWNED")#' }],
      agents: [{ id: 'a', role: 'R', goal: 'g', backstory: 'b' }],
      tasks: [{ id: 't', description: 'about {topic}', expectedOutput: 'e', agentId: 'a' }],
    });
    const dir = tempDir();
    exportCrewAi(hostile, dir);
    const read = (f: string) => readFileSync(join(dir, 'src/hostile', f), 'utf8');
    // Python ends a line at CR as well as LF; PyYAML also at NEL, LS and PS.
    const lines = (text: string, breaks: RegExp) => text.split(breaks);
    for (const f of ['crew.py', 'main.py']) {
      // Inside docstrings the quotes are escaped (\"PWNED\"); as code they would not be, and no # would come first.
      expect(lines(read(f), /\r\n|[\r\n]/).filter((l) => /^[^#]*os\.system\("PWNED"\)/.test(l))).toEqual([]);
    }
    for (const f of ['config/agents.yaml', 'config/tasks.yaml']) {
      expect(lines(read(f), /\r\n|[\r\n\u0085\u2028\u2029]/).filter((l) => /^[^#]*(PWNED|injected)/.test(l))).toEqual([]);
    }
    expect(read('crew.py')).toContain('"""CrewAI project for "Say \\"hi\\"\\"\\"\nimport os; os.system(\\"PWNED\\")\n\\"\u2028injected: yes", exported by Crewdeck."""');
    expect((await importCrewAiProject(dir)).doc.name).toBe(hostile.name);
  });
});

describe('CrewAI export of several crews as one project', () => {
  it('writes crews/<crew>/crew.py per crew and a main.py kicking each off; importing it back gives the same crews', async () => {
    const { crews } = (await importCrewAiProject(join(repo, 'test/fixtures/crewai/patterns/three_crews')));
    const dir = tempDir();
    const exported = exportCrewAiCrews(crews, join(dir, 'out'), { name: 'newsletter_pipeline' });
    expect(exported.files).toEqual(
      expect.arrayContaining([
        'pyproject.toml',
        'src/newsletter_pipeline/main.py',
        ...['collect_crew', 'write_crew', 'check_crew'].flatMap((c) => [`src/newsletter_pipeline/crews/${c}/crew.py`, `src/newsletter_pipeline/crews/${c}/config/agents.yaml`, `src/newsletter_pipeline/crews/${c}/config/tasks.yaml`]),
      ]),
    );
    const main = readFileSync(join(dir, 'out/src/newsletter_pipeline/main.py'), 'utf8');
    expect(main).toContain('CollectCrew().crew().kickoff(inputs={"beat": "open source"})');
    expect(main).toContain('WriteCrew().crew().kickoff(inputs={"items": input("items: ")})');
    expect(exported.summary).toEqual([]);
    const back = (await importCrewAiProject(join(dir, 'out')));
    const byId = (list: CrewDocument[]) => [...list].sort((a, b) => a.id.localeCompare(b.id));
    expect(byId(back.crews)).toEqual(byId(crews));
  });

  it('names what changes: a crew id CrewAI cannot carry and per-crew descriptions', async () => {
    const docs = ['research-brief', 'product-launch'].map((name) => loadCrewFile(join(repo, 'examples', `${name}.crew.json`)));
    const exported = exportCrewAiCrews(docs, join(tempDir(), 'out'));
    expect(exported.summary.filter((s) => s.path.endsWith(': id')).map((s) => s.why)).toEqual([
      'CrewAI names the crew by its class ResearchBrief; imported back its id is "research_brief"',
      'CrewAI names the crew by its class ProductLaunch; imported back its id is "product_launch"',
    ]);
  });
});
