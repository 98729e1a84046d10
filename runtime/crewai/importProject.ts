import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { ProjectSource } from './project/projectSource';
import type { CrewDocument } from '../../shared/model/crew';
import type { FlowDocument } from '../../shared/model/flow';
import { importCrewAiFlow } from './importFlow';
import type { Guardrail } from '../../shared/model/guardrail';
import type { ModelRef } from '../../shared/model/modelRef';
import { parseCrewDocument } from '../../shared/model/parse';
import type { ToolRef } from '../../shared/model/tool';
import { CrewAiConfigKeyMissing, CrewAiImportInvalid, CrewAiPlainScript, CrewAiProjectNotFound } from './crewAiErrors';
import { crewWarnings } from '../../shared/model/crewWarnings';
import type { Problem } from '../../shared/model/problems';
import { findCrewAiProjects, insideProject, walk, type CrewAiProjectFiles } from './findProject';
import { modelFromCrewAi, type LlmSettings } from './modelNames';
import { schemaFromPydantic } from './pydanticSchema';
import { blankComments, callArguments, findCall, matchingBracket, pyLiteral, pyString, splitTopLevel } from './pythonSource';
import { readCrewPyClasses, type CrewPy, type CrewPyMember } from './readCrewPy';
import { knowledgeFromCrewAi, listItems } from './knowledgeSources';
import type { KnowledgeSource } from '../../shared/model/crew';
import { plainScriptCrew } from './plainScript';
import { readYamlConfig, type YamlEntry } from './readYamlConfig';
import { CREWAI_TO_BUILTIN, toolClassName } from './toolNames';
import type { UnmappedItem } from './unmapped';

export type { UnmappedItem } from './unmapped';

export interface CrewAiImport {
  /** The first crew of the project (its only one, unless crew.py holds several @CrewBase classes). */
  doc: CrewDocument;
  /** One crew per @CrewBase class, in crew.py order (`doc` is the first). */
  crews: CrewDocument[];
  /**
   * A Flow project's flow (main.py's `Flow` class): the main document. Its crew bodies name the crews
   * as `<crew id>.crew.json`, beside the flow file.
   */
  flow?: FlowDocument;
  /** Things each crew may do but probably does not mean (duplicate roles, empty expected outputs), per crew id. */
  warnings: { crewId: string; warnings: Problem[] }[];
  /** Everything in the project that has no Crewdeck equivalent, with the reason. */
  unmapped: UnmappedItem[];
  /** Project files that were read, relative to the project folder. */
  sourceFiles: string[];
}

const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_-]*)\}/g;
const NOT_NEEDED = 'not needed: Crewdeck records every step of a run in its trace';
/** Classes whose `model=` names the model: CrewAI's LLM and the LangChain chat models CrewAI accepts. */
const LLM_CLASSES = ['LLM', 'ChatOpenAI', 'AzureChatOpenAI', 'ChatAnthropic', 'ChatOllama', 'ChatGroq', 'ChatGoogleGenerativeAI'];
const LANGCHAIN_PREFIX: Record<string, string> = { ChatOpenAI: 'openai', AzureChatOpenAI: 'azure', ChatAnthropic: 'anthropic', ChatOllama: 'ollama', ChatGroq: 'groq', ChatGoogleGenerativeAI: 'gemini' };

/**
 * Reads (never runs) a CrewAI project and maps it to a crew document; see docs in modelNames/toolNames.
 * Its Python is parsed with a real Python parser: a syntax error is listed with its file, line and column.
 */
export async function importCrewAiProject(dir: string): Promise<CrewAiImport> {
  const source = await ProjectSource.open(resolve(dir));
  const result = importProjectFiles(dir);
  for (const file of result.sourceFiles) if (file.endsWith('.py')) source.module(join(source.root, ...file.split('/')));
  result.unmapped.unshift(...source.syntaxProblems());
  return result;
}

function importProjectFiles(dir: string): CrewAiImport {
  let projects: CrewAiProjectFiles[];
  try {
    projects = findCrewAiProjects(dir);
  } catch (error) {
    const script = error instanceof CrewAiProjectNotFound ? plainScriptCrew(error.dir) : undefined;
    if (script) throw new CrewAiPlainScript(error instanceof CrewAiProjectNotFound ? error.dir : dir, script.file, script.line);
    throw error;
  }
  // Each crew file with its @CrewBase classes (a Flow project has one crew file per crew).
  const perFile = projects.map((files) => {
    const source = files.crewPy ? readFileSync(files.crewPy, 'utf8') : '';
    return { files, source, classes: files.crewPy ? readCrewPyClasses(source) : [] };
  });
  const root = projects[0].root;
  if (perFile.every((f) => f.classes.length === 0)) {
    const script = plainScriptCrew(root);
    if (script) throw new CrewAiPlainScript(root, script.file, script.line);
  }
  const unmapped: UnmappedItem[] = [];
  const sourceFiles = new Set<string>();
  const usedKeys = new Map<string, Set<string>>();
  const total = perFile.reduce((n, f) => n + Math.max(1, f.classes.length), 0);
  const imports = perFile.flatMap(({ files, source, classes }) =>
    (classes.length > 0 ? classes : [undefined]).map((py) => new ProjectImport(files, py, source, total > 1, unmapped, sourceFiles, usedKeys)),
  );
  const crews = imports.map((one) => one.run());
  for (const one of imports) one.noteUnusedEntries();
  const ids = new Set<string>();
  for (const crew of crews) {
    for (let n = 2, base = crew.id; ids.has(crew.id); n += 1) crew.id = `${base}-${n}`;
    ids.add(crew.id);
  }
  // A Flow project: main.py's Flow class becomes the flow document, its crew kickoffs name the crews' files.
  const flowAt = flowClasses(root)[0];
  const byClass = new Map(imports.map((one, i) => [one.className, crews[i]] as const).filter(([name]) => name !== undefined));
  const flow = flowAt
    ? importCrewAiFlow(root, join(root, flowAt.file), flowId(root, flowAt.className), (className) => {
        const crew = byClass.get(className);
        return crew ? `${crew.id}.crew.json` : undefined;
      }, unmapped)?.doc
    : undefined;
  if (flow) sourceFiles.add(flowAt!.file);
  return {
    doc: crews[0],
    crews,
    ...(flow ? { flow } : {}),
    warnings: crews.map((crew) => ({ crewId: crew.id, warnings: crewWarnings(crew) })).filter((w) => w.warnings.length > 0),
    unmapped,
    sourceFiles: [...sourceFiles],
  };
}

/** The flow's id: the project's name in pyproject.toml, else the Flow class's name in snake case. */
function flowId(root: string, className: string): string {
  const pyproject = join(root, 'pyproject.toml');
  const text = existsSync(pyproject) ? readFileSync(pyproject, 'utf8') : '';
  const name = /^\[project\][^[]*?^name\s*=\s*["']([^"'\n]+)["']/m.exec(text)?.[1];
  const raw = name ?? className.replace(/(?<=[a-z0-9])(?=[A-Z])/g, '_').toLowerCase();
  return raw.replace(/[^A-Za-z0-9_-]/g, '_') || 'crewai_flow';
}

/** `class X(Flow[State]):` (or `Flow`) in the project's Python files, with file and line. */
function flowClasses(root: string): { file: string; line: number; className: string }[] {
  const out: { file: string; line: number; className: string }[] = [];
  for (const file of walk(root).filter((f) => f.endsWith('.py'))) {
    const src = blankComments(readFileSync(file, 'utf8'));
    for (const m of src.matchAll(/^class\s+(\w+)\s*\(\s*Flow\b[^)]*\)\s*:/gm)) {
      out.push({ file: relative(root, file).split(sep).join('/'), line: src.slice(0, m.index).split('\n').length, className: m[1] });
    }
  }
  return out;
}

type Loose = Record<string, unknown>;

/** An agent or task as read: YAML settings plus the crew.py member that loads them. */
interface Member {
  id: string;
  key: string;
  yaml: Loose;
  yamlLine?: number;
  code?: CrewPyMember;
}

/** One crew: a @CrewBase class of crew.py with the YAML files it loads (or the YAML files alone). */
class ProjectImport {
  /** @agent / @task method name (and YAML key) → id. */
  private readonly agentIds = new Map<string, string>();
  private readonly taskIds = new Map<string, string>();
  private readonly agentsYamlFile: string;
  private readonly tasksYamlFile: string;
  private yamlEntries: { kind: 'agent' | 'task'; file: string; entries: YamlEntry[] }[] = [];

  constructor(
    private readonly files: CrewAiProjectFiles,
    private readonly py: CrewPy | undefined,
    private readonly pySource: string,
    /** crew.py holds several @CrewBase classes: ids and names come from each class. */
    private readonly several: boolean,
    private readonly unmapped: UnmappedItem[],
    private readonly sourceFiles: Set<string>,
    /** YAML file → keys some class of crew.py loads (shared by every class). */
    private readonly usedKeys: Map<string, Set<string>>,
  ) {
    if (files.crewPy) this.sourceFiles.add(this.rel(files.crewPy));
    const configured = (path: string | undefined, fallback: string) => {
      const file = path !== undefined && files.crewPy ? join(dirname(files.crewPy), path) : undefined;
      return file !== undefined && existsSync(file) && insideProject(files.root, file) ? file : fallback;
    };
    this.agentsYamlFile = configured(py?.agentsConfig, files.agentsYaml);
    this.tasksYamlFile = configured(py?.tasksConfig, files.tasksYaml);
  }

  /** The @CrewBase class's name, when there is one. */
  get className(): string | undefined {
    return this.py?.className;
  }

  run(): CrewDocument {
    const files = { ...this.files, agentsYaml: this.agentsYamlFile, tasksYaml: this.tasksYamlFile };
    const agentsYaml = readYamlConfig(files.agentsYaml, this.rel(files.agentsYaml));
    const tasksYaml = readYamlConfig(files.tasksYaml, this.rel(files.tasksYaml));
    this.sourceFiles.add(this.rel(files.agentsYaml)).add(this.rel(files.tasksYaml));

    const agentMembers = this.members(agentsYaml, this.py?.agents ?? [], this.agentIds, 'agent', files.agentsYaml);
    const taskMembers = this.members(tasksYaml, this.py?.tasks ?? [], this.taskIds, 'task', files.tasksYaml);
    const crewKw = this.py?.crew?.keywords ?? new Map<string, string>();
    const crewAt = this.pyAt(this.py?.crew?.line);

    // An explicit agents=[...] picks agents (the manager agent stays, in class order); tasks=[...] also orders tasks.
    const managerMethod = /^self\.(\w+)\s*\(\s*\)$/.exec(crewKw.get('manager_agent') ?? '')?.[1];
    const pickedAgents = this.ordered(agentMembers, crewKw.get('agents'), this.agentIds);
    const agents = agentMembers
      .filter((m) => pickedAgents.includes(m) || (managerMethod !== undefined && m.id === this.agentIds.get(managerMethod)))
      .map((m) => this.agent(m));
    const tasks = this.ordered(taskMembers, crewKw.get('tasks'), this.taskIds).map((m) => this.task(m));

    const doc: Loose = {
      kind: 'crew',
      version: 1,
      ...this.identity(),
      agents,
      tasks,
    };
    this.crewSettings(doc, crewKw, crewAt, agents);
    this.hooks();
    const inputs = this.inputs(agents, tasks);
    if (inputs.length > 0) doc.inputs = inputs;

    const parsed = parseCrewDocument(doc);
    if (!parsed.ok) throw new CrewAiImportInvalid(files.root, parsed.problems);
    return parsed.value;
  }

  /** YAML entries that no class of crew.py loads: CrewAI leaves them out of every crew. */
  noteUnusedEntries(): void {
    for (const { kind, file, entries } of this.yamlEntries) {
      const used = this.usedKeys.get(file) ?? new Set<string>();
      for (const entry of entries) {
        if (used.has(entry.key)) continue;
        used.add(entry.key);
        this.usedKeys.set(file, used);
        this.note(`${this.rel(file)}:${entry.line}`, `${kind} "${entry.key}"`, `no @${kind} method in crew.py uses it, so the CrewAI crew does not include it either`);
      }
    }
  }

  // ---- files -------------------------------------------------------------------------------------

  private rel(file: string): string {
    return relative(this.files.root, file).split(sep).join('/');
  }

  private read(file: string): string {
    this.sourceFiles.add(this.rel(file));
    return readFileSync(file, 'utf8');
  }

  private pyAt(line: number | undefined): string {
    const file = this.files.crewPy ? this.rel(this.files.crewPy) : 'crew.py';
    return line === undefined ? file : `${file}:${line}`;
  }

  private note(path: string, item: string, why: string): void {
    this.unmapped.push({ path, item, why });
  }

  // ---- agents and tasks ----------------------------------------------------------------------------

  /**
   * With a crew.py, the crew uses the members its @agent/@task methods create (in class order);
   * without one, every YAML entry in file order.
   */
  private members(entries: YamlEntry[], code: CrewPyMember[], ids: Map<string, string>, kind: 'agent' | 'task', file: string): Member[] {
    const byKey = new Map(entries.map((e) => [e.key, e]));
    const used = new Set<string>();
    const taken = new Set<string>();
    const idFor = (key: string) => {
      let id = key.replace(/[^A-Za-z0-9_-]/g, '_') || kind;
      for (let n = 2; taken.has(id); n += 1) id = `${key}_${n}`;
      taken.add(id);
      return id;
    };
    const out: Member[] = [];
    if (code.length > 0) {
      const shared = this.usedKeys.get(file) ?? new Set<string>();
      this.usedKeys.set(file, shared);
      const shares = (key: string) => code.filter((c) => (c.configKey ?? c.method) === key).length > 1;
      for (const member of code) {
        const key = member.configKey ?? member.method;
        const entry = byKey.get(key);
        if (member.configKey !== undefined && entry === undefined) {
          const yamlName = basename(file);
          throw new CrewAiConfigKeyMissing(
            this.pyAt(member.line),
            `${kind === 'agent' ? 'agents' : 'tasks'}_config['${member.configKey}'] is not in ${yamlName}`,
            `${this.rel(file)} defines ${entries.length === 0 ? 'nothing' : entries.map((e) => `"${e.key}"`).join(', ')}`,
          );
        }
        used.add(key);
        shared.add(key);
        // Methods sharing one YAML config (CrewAI allows it) are told apart by their method names.
        const id = idFor(shares(key) ? member.method : key);
        ids.set(member.method, id);
        ids.set(key, id);
        out.push({ id, key, yaml: entry?.value ?? {}, yamlLine: entry?.line, code: member });
      }
      this.yamlEntries.push({ kind, file, entries });
      return out;
    }
    for (const entry of entries) {
      const id = idFor(entry.key);
      ids.set(entry.key, id);
      out.push({ id, key: entry.key, yaml: entry.value, yamlLine: entry.line });
    }
    return out;
  }

  /** `Crew(agents=[self.a(), self.b()])` picks and orders members; `self.agents` keeps them all. */
  private ordered(members: Member[], listed: string | undefined, ids: Map<string, string>): Member[] {
    if (!listed || !listed.trim().startsWith('[')) return members;
    const picked: Member[] = [];
    for (const item of splitTopLevel(listed.trim().slice(1, -1))) {
      const name = /^self\.(\w+)\s*\(\s*\)$/.exec(item)?.[1];
      const id = name ? ids.get(name) : undefined;
      const member = members.find((m) => m.id === id);
      if (member && !picked.includes(member)) picked.push(member);
    }
    return picked.length > 0 ? picked : members;
  }

  private where(m: Member, file: string): string {
    return m.yamlLine !== undefined ? `${this.rel(file)}:${m.yamlLine}` : this.pyAt(m.code?.line);
  }

  /** A setting from YAML, overridden by a literal keyword argument in crew.py. */
  private setting(m: Member, name: string): { value: unknown; raw?: string; at: 'yaml' | 'code' } | undefined {
    const raw = m.code?.keywords.get(name);
    if (raw !== undefined) return { value: pyLiteral(raw), raw, at: 'code' };
    if (Object.prototype.hasOwnProperty.call(m.yaml, name)) return { value: m.yaml[name], at: 'yaml' };
    return undefined;
  }

  private agent(m: Member): Loose {
    const at = this.where(m, this.agentsYamlFile);
    const known = new Set(['role', 'goal', 'backstory', 'llm', 'tools', 'allow_delegation', 'max_iter', 'max_rpm', 'max_execution_time', 'respect_context_window', 'cache', 'memory', 'verbose', 'knowledge_sources']);
    const agent: Loose = { id: m.id };
    const text = (field: string) => {
      const s = this.setting(m, field);
      return typeof s?.value === 'string' ? s.value.trim() : typeof s?.value === 'number' ? String(s.value) : undefined;
    };
    agent.role = text('role');
    agent.goal = text('goal');
    const backstory = text('backstory');
    if (backstory !== undefined) agent.backstory = backstory;

    const llm = this.setting(m, 'llm');
    if (llm) {
      const ref = this.model(llm.raw ?? llm.value, llm.at === 'code' ? this.pyAt(m.code?.line) : at, `${m.key}.llm`, llm.at === 'code');
      if (ref !== undefined) agent.llm = ref;
    }
    const knowledge = m.code?.keywords.get('knowledge_sources');
    if (knowledge !== undefined) {
      const sources = this.knowledge(knowledge, this.pyAt(m.code?.line), `${m.key}.knowledge_sources`);
      if (sources.length > 0) agent.knowledge = sources;
    }
    const tools = this.toolList(m, at);
    if (tools.length > 0) agent.tools = tools;

    this.flag(m, at, 'allow_delegation', agent, 'allowDelegation', 'boolean');
    this.flag(m, at, 'max_iter', agent, 'maxIter', 'integer');
    this.flag(m, at, 'max_rpm', agent, 'maxRpm', 'integer');
    this.flag(m, at, 'respect_context_window', agent, 'respectContextWindow', 'boolean');
    this.flag(m, at, 'cache', agent, 'cache', 'boolean');
    this.flag(m, at, 'memory', agent, 'memory', 'boolean');
    const seconds = this.setting(m, 'max_execution_time');
    if (seconds && seconds.value !== null) {
      if (typeof seconds.value === 'number' && seconds.value > 0) agent.maxExecutionTimeMs = Math.round(seconds.value * 1000);
      else this.note(at, `${m.key}.max_execution_time: ${seconds.raw ?? JSON.stringify(seconds.value)}`, 'expected a positive number of seconds');
    }
    this.verbose(m, at);
    this.leftovers(m, at, known, 'agent');
    return agent;
  }

  private task(m: Member): Loose {
    const at = this.where(m, this.tasksYamlFile);
    const known = new Set([
      'description', 'expected_output', 'agent', 'context', 'async_execution', 'human_input', 'output_file', 'markdown',
      'guardrail', 'guardrails', 'guardrail_max_retries', 'max_retries', 'output_json', 'output_pydantic', 'tools', 'name', 'verbose',
    ]);
    const task: Loose = { id: m.id };
    const text = (field: string) => {
      const s = this.setting(m, field);
      return typeof s?.value === 'string' ? s.value.trim() : undefined;
    };
    const name = text('name');
    if (name) task.name = name;
    task.description = text('description');
    task.expectedOutput = text('expected_output');

    const agent = this.setting(m, 'agent');
    if (agent && agent.value !== null) {
      const ref = agent.at === 'code' ? /^self\.(\w+)\s*\(\s*\)$/.exec(agent.raw ?? '')?.[1] : typeof agent.value === 'string' ? agent.value : undefined;
      const id = ref !== undefined ? this.agentIds.get(ref) : undefined;
      if (id) task.agentId = id;
      else this.note(at, `${m.key}.agent: ${agent.raw ?? String(agent.value)}`, 'names no agent of this crew');
    }

    const context = this.setting(m, 'context');
    if (context && context.value !== null) {
      const items = context.at === 'code' ? splitTopLevel((context.raw ?? '').replace(/^\[|\]$/g, '')).map((e) => /^self\.(\w+)\s*\(\s*\)$/.exec(e)?.[1] ?? e) : Array.isArray(context.value) ? context.value.map(String) : [];
      const ids: string[] = [];
      for (const item of items) {
        const id = this.taskIds.get(item);
        if (id) ids.push(id);
        else this.note(at, `${m.key}.context: ${item}`, 'names no task of this crew');
      }
      task.context = items.length === 0 ? 'none' : ids;
      if (items.length > 0 && ids.length === 0) delete task.context;
    }

    this.flag(m, at, 'async_execution', task, 'async', 'boolean');
    this.flag(m, at, 'human_input', task, 'humanInput', 'boolean');
    const outputFile = text('output_file');
    if (outputFile) task.outputFile = outputFile;
    const markdown = this.setting(m, 'markdown');
    if (markdown?.value === true) task.output = { format: 'markdown' };

    const guardrails: Guardrail[] = [];
    for (const field of ['guardrail', 'guardrails']) {
      const g = this.setting(m, field);
      if (!g || g.value === null) continue;
      const list = g.at === 'code' && g.raw?.trim().startsWith('[') ? splitTopLevel(g.raw.trim().slice(1, -1)) : g.at === 'code' ? [g.raw ?? ''] : Array.isArray(g.value) ? g.value : [g.value];
      for (const item of list) {
        const criterion = g.at === 'code' ? pyString(String(item)) : typeof item === 'string' ? item : undefined;
        if (criterion?.trim()) guardrails.push({ type: 'llm', criterion: criterion.trim() });
        else this.note(at, `${m.key}.${field}: ${String(item)}`, 'a Python guardrail function cannot run in Crewdeck; rebuild it as a regex, length, contains, json_schema or llm guardrail');
      }
    }
    if (guardrails.length > 0) task.guardrails = guardrails;
    const retries = this.setting(m, 'guardrail_max_retries') ?? this.setting(m, 'max_retries');
    if (retries && typeof retries.value === 'number' && Number.isInteger(retries.value) && retries.value >= 0) task.guardrailMaxRetries = retries.value;

    for (const field of ['output_json', 'output_pydantic'] as const) {
      const out = this.setting(m, field);
      if (!out || out.value === null) continue;
      const className = out.at === 'code' ? out.raw?.trim() : typeof out.value === 'string' ? out.value : undefined;
      const schema = className ? this.pydanticSchema(className) : undefined;
      // output_pydantic is what export writes by default; output_json is recorded so that it comes back as such.
      if (schema) task.output = field === 'output_json' ? { format: 'json', schema, crewai: field } : { format: 'json', schema };
      else this.note(at, `${m.key}.${field}: ${className ?? String(out.value)}`, 'a pydantic output class whose JSON schema could not be read from the project (only plain str/int/float/bool/list fields are read); set the output schema in Crewdeck');
    }

    const tools = this.toolList(m, at);
    if (tools.length > 0) task.tools = tools;
    this.verbose(m, at);
    this.leftovers(m, at, known, 'task');
    return task;
  }

  private verbose(m: Member, at: string): void {
    const s = this.setting(m, 'verbose');
    if (s !== undefined) this.note(s.at === 'code' ? this.pyAt(m.code?.line) : at, `${m.key}.verbose`, NOT_NEEDED);
  }

  /** Copies a typed setting; a value of the wrong type is reported, not guessed. */
  private flag(m: Member, at: string, field: string, target: Loose, to: string, type: 'boolean' | 'integer'): void {
    const s = this.setting(m, field);
    if (!s || s.value === null) return;
    const ok = type === 'boolean' ? typeof s.value === 'boolean' : typeof s.value === 'number' && Number.isInteger(s.value) && s.value > 0;
    if (ok) target[to] = s.value;
    else this.note(at, `${m.key}.${field}: ${s.raw ?? JSON.stringify(s.value)}`, type === 'boolean' ? 'expected true or false' : 'expected a positive whole number');
  }

  private leftovers(m: Member, at: string, known: Set<string>, kind: 'agent' | 'task'): void {
    const why = (field: string) =>
      /callback/.test(field)
        ? 'a Python callback cannot run in Crewdeck'
        : `CrewAI ${kind} setting with no Crewdeck equivalent`;
    for (const field of Object.keys(m.yaml)) if (!known.has(field)) this.note(at, `${m.key}.${field}`, why(field));
    for (const field of m.code?.keywords.keys() ?? []) {
      if (!known.has(field)) this.note(this.pyAt(m.code?.line), `${m.key}.${field}=${m.code?.keywords.get(field)}`, why(field));
    }
  }

  // ---- models --------------------------------------------------------------------------------------

  /** A model from YAML (a name, or the name of an @llm method) or from a crew.py expression. */
  /**
   * A model from YAML (a model name, or the name of an @llm method) or from a crew.py expression
   * (`fromCode`): a string literal, `LLM(...)`/`ChatOpenAI(...)`, an @llm method call, or a variable or
   * class attribute (`self.llm`) assigned one of those. A Python expression is never kept as a name.
   */
  private model(value: unknown, at: string, item: string, fromCode = true): ModelRef | undefined {
    if (typeof value !== 'string' || value.trim() === '') {
      this.note(at, `${item}`, 'expected a model name');
      return undefined;
    }
    const raw = value.trim();
    if (!fromCode) {
      if (this.py?.llms.has(raw)) return this.llmCall(this.py.llms.get(raw)!, at, item);
      return this.namedModel(raw, {}, at, item);
    }
    const literal = pyString(raw);
    if (literal !== undefined) return this.namedModel(literal, {}, at, item);
    const method = /^self\.(\w+)\s*\(\s*\)$/.exec(raw)?.[1];
    if (method && this.py?.llms.has(method)) return this.llmCall(this.py.llms.get(method)!, at, item);
    const call = findCall(raw, LLM_CLASSES);
    if (call && call.at === 0) return this.llmCall(call.args, at, item, call.callee);
    const variable = /^(?:self\.)?([A-Za-z_]\w*)$/.exec(raw)?.[1];
    const assigned = variable !== undefined ? this.py?.assignments.get(variable) : undefined;
    if (assigned) {
      const inner = findCall(assigned, LLM_CLASSES);
      if (inner && inner.at === 0) return this.llmCall(inner.args, at, item, inner.callee);
      this.note(at, `${item}: ${raw}`, `${raw} is ${assigned.split('(')[0]}(...), not an LLM(...) or ChatOpenAI(...) this importer can read; choose the model in Crewdeck`);
      return undefined;
    }
    if (variable !== undefined && this.py?.llms.has(variable)) return this.llmCall(this.py.llms.get(variable)!, at, item);
    this.note(at, `${item}: ${raw}`, variable !== undefined
      ? `${raw} is a Python ${raw.startsWith('self.') ? 'attribute' : 'variable'} whose model cannot be read without running the code; choose the model in Crewdeck`
      : 'a model built by Python code that cannot be read without running it; choose the model in Crewdeck');
    return undefined;
  }

  private namedModel(name: string, settings: LlmSettings, at: string, item: string): ModelRef {
    const mapped = modelFromCrewAi(name, settings);
    if (mapped.keptAsProfile) {
      this.note(at, `${item}: ${name}`, `Crewdeck talks to OpenAI-compatible servers and has no "${mapped.keptAsProfile}" preset; kept as the model profile name "${name}" — define that profile in crewdeck.json or pick another model`);
    }
    return mapped.ref;
  }

  private llmCall(args: string, at: string, item: string, callee = 'LLM'): ModelRef | undefined {
    const { positional, keywords } = callArguments(args);
    const modelRaw = keywords.get('model') ?? keywords.get('model_name') ?? keywords.get('deployment_name') ?? positional[0];
    const bare = modelRaw !== undefined ? pyString(modelRaw) : undefined;
    // LangChain chat classes name the model without CrewAI's provider prefix.
    const prefix = LANGCHAIN_PREFIX[callee];
    const model = bare !== undefined && prefix !== undefined && !bare.includes('/') ? `${prefix}/${bare}` : bare;
    if (model === undefined) {
      this.note(at, `${item}: LLM(${args.trim()})`, 'the model name is not a plain string');
      return undefined;
    }
    const settings: LlmSettings = {};
    for (const [key, raw] of keywords) {
      const value = pyLiteral(raw);
      if (key === 'model' || key === 'model_name' || key === 'deployment_name') continue;
      if ((key === 'base_url' || key === 'api_base') && typeof value === 'string') settings.baseUrl = value;
      else if (key === 'temperature' && typeof value === 'number') settings.temperature = value;
      else if ((key === 'max_tokens' || key === 'max_completion_tokens') && typeof value === 'number') settings.maxTokens = value;
      else if (key === 'stream' && typeof value === 'boolean') settings.stream = value;
      else if ((key === 'timeout' || key === 'request_timeout') && typeof value === 'number') settings.timeoutMs = Math.round(value * 1000);
      else if (key === 'api_key') {
        const env = /os\.(?:environ\s*\[\s*|environ\.get\s*\(\s*|getenv\s*\(\s*)(['"])([A-Za-z_]\w*)\1/.exec(raw)?.[2];
        if (env) settings.apiKeyEnv = env;
        else this.note(at, `${item}: api_key`, 'an API key written into the code is never imported; put it in an environment variable and name it in the model settings');
      } else this.note(at, `${item}: ${key}=${raw}`, 'LLM setting with no Crewdeck equivalent');
    }
    return this.namedModel(model, settings, at, item);
  }

  // ---- knowledge -----------------------------------------------------------------------------------

  /** `knowledge_sources=[...]`: each item a source call or a variable assigned one. */
  private knowledge(raw: string, at: string, item: string): KnowledgeSource[] {
    const out: KnowledgeSource[] = [];
    listItems(raw).forEach((expr, i) => {
      const variable = /^(?:self\.)?([A-Za-z_]\w*)$/.exec(expr)?.[1];
      const call = variable !== undefined ? this.py?.assignments.get(variable) : expr;
      const read = call !== undefined ? knowledgeFromCrewAi(call, variable ?? `string source ${i + 1}`) : { ok: false as const, why: `${expr} is not assigned a knowledge source this importer can read` };
      if (read.ok) out.push(...read.sources);
      else this.note(at, `${item}: ${expr}`, read.why);
    });
    return out;
  }

  // ---- tools ---------------------------------------------------------------------------------------

  private toolList(m: Member, at: string): ToolRef[] {
    const exprs: { expr: string; at: string; yaml?: boolean }[] = [];
    const yamlTools = m.yaml.tools;
    if (Array.isArray(yamlTools)) for (const t of yamlTools) exprs.push({ expr: String(t), at, yaml: true });
    const codeTools = m.code?.keywords.get('tools');
    if (codeTools !== undefined) {
      const inner = codeTools.trim().startsWith('[') ? codeTools.trim().slice(1, matchingBracket(codeTools.trim(), 0)) : codeTools;
      for (const t of splitTopLevel(inner)) exprs.push({ expr: t, at: this.pyAt(m.code?.line) });
    }
    const refs: ToolRef[] = [];
    for (const { expr, at: where, yaml } of exprs) {
      const ref = this.tool(expr, where, `${m.key}.tools`, yaml);
      if (ref && !refs.some((r) => r.tool === ref.tool)) refs.push(ref);
    }
    return refs;
  }

  private tool(exprIn: string, at: string, item: string, yaml = false): ToolRef | undefined {
    let expr = exprIn.trim();
    const method = /^self\.(\w+)\s*\(\s*\)$/.exec(expr)?.[1] ?? (this.py?.tools.has(expr) ? expr : undefined);
    if (method && this.py?.tools.has(method)) expr = this.py.tools.get(method)!;
    else if (this.py?.assignments.has(expr)) expr = this.py.assignments.get(expr)!;
    const call = /^([A-Za-z_][\w.]*)\s*\(/.exec(expr);
    const className = toolClassName((call ? call[1] : expr).split('.').pop() ?? expr);
    const args = call ? (findCall(expr, [call[1]])?.args ?? '') : '';
    const builtin = CREWAI_TO_BUILTIN[className];
    if (builtin) {
      const ref: ToolRef = { tool: builtin, resultAsAnswer: false, requiresApproval: false };
      for (const [key, raw] of callArguments(args).keywords) {
        const value = pyLiteral(raw);
        if (key === 'result_as_answer' && typeof value === 'boolean') ref.resultAsAnswer = value;
        else if (key === 'max_usage_count' && typeof value === 'number' && Number.isInteger(value) && value > 0) ref.maxUsageCount = value;
        else this.note(at, `${item}: ${className}(${key}=${raw})`, `tool setting with no equivalent on the ${builtin} built-in; the tool is imported without it`);
      }
      return ref;
    }
    const name = (call ? call[1] : expr).split('.').pop() ?? expr;
    this.note(at, `${item}: ${exprIn.trim()}`, this.whyToolUnmapped(name, className, yaml || expr !== exprIn.trim() || call !== null));
    return undefined;
  }

  /**
   * Why a tool is not imported, naming what it really is: the project's own tool (a class or an @tool
   * function of the project, by the name the code uses), a crewai_tools class, or an unknown variable.
   * `resolved`: the expression is a call (or a variable/@tool method resolved to one).
   */
  private whyToolUnmapped(name: string, className: string, resolved: boolean): string {
    const own = (shown: string, file: string | undefined) => {
      if (file) this.sourceFiles.add(this.rel(file));
      return `${shown} is the project's own tool (custom Python tool${file ? ` (${this.rel(file)})` : ''}): Crewdeck does not run Python code — rebuild it as an MCP server (mcp:<server>/<tool>) or use a built-in tool`;
    };
    for (const candidate of [name, className]) {
      const module = this.py?.imports.get(candidate);
      const definedHere = new RegExp(`^(?:class\\s+${candidate}\\s*\\(|def\\s+${candidate}\\s*\\()`, 'm').test(this.pySource);
      if (definedHere) return own(candidate, this.files.crewPy);
      if (module !== undefined && !/^crewai(_tools)?(\.|$)/.test(module)) return own(candidate, this.moduleFile(module));
      if (module !== undefined) return `CrewAI tool ${candidate} has no Crewdeck built-in equivalent (built-ins: read_file, write_file, list_directory, http_request, calculator, current_time)`;
    }
    if (resolved && /^[A-Z]/.test(name)) return `CrewAI tool ${name} has no Crewdeck built-in equivalent (built-ins: read_file, write_file, list_directory, http_request, calculator, current_time)`;
    if (!resolved && /^[a-z_]\w*$/.test(name)) return `${name} is a Python variable this importer cannot trace to a tool class; add the tool in Crewdeck`;
    if (/Tool$/.test(className)) return `CrewAI tool ${className} has no Crewdeck built-in equivalent (built-ins: read_file, write_file, list_directory, http_request, calculator, current_time)`;
    return 'not a tool this importer can identify';
  }

  /** `.tools.custom_tool` (relative to crew.py) or `pkg.tools.custom_tool` → the .py file, if it exists. */
  private moduleFile(module: string): string | undefined {
    const pkgDir = this.files.crewPy ? dirname(this.files.crewPy) : undefined;
    if (module.startsWith('.') && pkgDir) {
      const ups = /^\.+/.exec(module)![0].length - 1;
      let base = pkgDir;
      for (let i = 0; i < ups; i += 1) base = dirname(base);
      const file = join(base, ...module.replace(/^\.+/, '').split('.')) + '.py';
      return existsSync(file) ? file : undefined;
    }
    const parts = module.split('.');
    for (const base of [join(this.files.root, 'src'), this.files.root, pkgDir ? dirname(pkgDir) : this.files.root]) {
      const file = join(base, ...parts) + '.py';
      if (existsSync(file)) return file;
    }
    return undefined;
  }

  private pydanticSchema(className: string): Record<string, unknown> | undefined {
    const fromCrew = schemaFromPydantic(this.pySource, className);
    if (fromCrew) return fromCrew;
    const module = this.py?.imports.get(className);
    const file = module ? this.moduleFile(module) : undefined;
    return file ? schemaFromPydantic(this.read(file), className) : undefined;
  }

  // ---- crew ----------------------------------------------------------------------------------------

  private identity(): { id: string; name: string; description?: string } {
    const pyproject = this.files.pyproject ? this.read(this.files.pyproject) : '';
    const project = /^\[project\]\s*$([\s\S]*?)(?=^\[|(?![\s\S]))/m.exec(pyproject)?.[1] ?? pyproject;
    const field = (name: string) => {
      const m = new RegExp(`^${name}\\s*=\\s*("(?:[^"\\\\]|\\\\.)*"|'[^']*')`, 'm').exec(project);
      return m ? pyString(m[1]) : undefined;
    };
    const pkg = this.files.crewPy ? basename(dirname(this.files.crewPy)) : basename(dirname(dirname(this.files.agentsYaml)));
    if (this.several && this.py?.className) {
      const id = this.py.className.replace(/(?<=[a-z0-9])(?=[A-Z])/g, '_').toLowerCase().replace(/[^a-z0-9_-]/g, '_');
      return { id, name: this.py.docstring ?? this.py.className };
    }
    const rawId = field('name') ?? pkg ?? basename(this.files.root);
    const id = rawId.replace(/[^A-Za-z0-9_-]/g, '-') || 'crewai-crew';
    const name = this.py?.docstring ?? this.py?.className ?? rawId;
    const description = field('description');
    return description ? { id, name, description } : { id, name };
  }

  private crewSettings(doc: Loose, kw: Map<string, string>, at: string, agents: Loose[]): void {
    const known = new Set(['agents', 'tasks', 'process', 'manager_llm', 'manager_agent', 'planning', 'planning_llm', 'memory', 'max_rpm', 'verbose', 'knowledge_sources']);
    const knowledge = kw.get('knowledge_sources');
    if (knowledge !== undefined) {
      const sources = this.knowledge(knowledge, at, 'knowledge_sources');
      if (sources.length > 0) doc.knowledge = sources;
    }
    const process = kw.get('process');
    if (process !== undefined) {
      if (/hierarchical/.test(process)) doc.process = 'hierarchical';
      else if (/sequential/.test(process)) doc.process = 'sequential';
      else this.note(at, `process=${process}`, 'not a process this importer can read; the crew is sequential');
    }
    const managerAgent = kw.get('manager_agent');
    const managerLlm = kw.get('manager_llm');
    if (managerAgent !== undefined) {
      const method = /^self\.(\w+)\s*\(\s*\)$/.exec(managerAgent)?.[1];
      const id = method ? this.agentIds.get(method) : undefined;
      if (id && agents.some((a) => a.id === id)) doc.manager = { agentId: id };
      else this.note(at, `manager_agent=${managerAgent}`, 'the manager must be an @agent method of the crew class');
      if (managerLlm !== undefined) this.note(at, `manager_llm=${managerLlm}`, 'a manager agent uses its own llm; manager_llm is ignored (as CrewAI does)');
    } else if (managerLlm !== undefined) {
      const llm = this.model(managerLlm, at, 'manager_llm');
      doc.manager = llm !== undefined ? { llm } : {};
    } else if (doc.process === 'hierarchical') {
      doc.manager = {};
    }
    if (doc.process !== 'hierarchical' && doc.manager !== undefined) {
      this.note(at, 'manager', 'a manager only takes part in a hierarchical crew');
      delete doc.manager;
    }
    const planning = pyLiteral(kw.get('planning') ?? '');
    if (planning === true) {
      const llmRaw = kw.get('planning_llm');
      const llm = llmRaw !== undefined ? this.model(llmRaw, at, 'planning_llm') : undefined;
      doc.planning = llm !== undefined ? { enabled: true, llm } : { enabled: true };
    }
    const memory = kw.get('memory');
    if (memory !== undefined) {
      const value = pyLiteral(memory);
      if (value === true) doc.memory = { enabled: true };
      else if (value !== false) this.note(at, `memory=${memory}`, 'a memory object built in Python; turn on crew memory in Crewdeck instead');
    }
    const maxRpm = pyLiteral(kw.get('max_rpm') ?? '');
    if (typeof maxRpm === 'number' && Number.isInteger(maxRpm) && maxRpm > 0) doc.maxRpm = maxRpm;
    if (kw.has('verbose')) this.note(at, 'verbose', NOT_NEEDED);
    for (const [key, raw] of kw) {
      if (!known.has(key)) this.note(at, `${key}=${raw}`, /callback/.test(key) ? 'a Python callback cannot run in Crewdeck' : 'CrewAI crew setting with no Crewdeck equivalent');
    }
  }

  private hooks(): void {
    const why: Record<string, string> = {
      before_kickoff: 'Python code run before kickoff cannot run in Crewdeck; prepare the inputs before the run instead',
      after_kickoff: 'Python code run after kickoff cannot run in Crewdeck; a flow can post-process the crew output',
      callback: 'a Python callback cannot run in Crewdeck',
      cache_handler: 'Crewdeck caches tool results itself (agent setting cache)',
      output_json: 'a pydantic output class (see the task that uses it)',
      output_pydantic: 'a pydantic output class (see the task that uses it)',
    };
    for (const hook of this.py?.hooks ?? []) this.note(this.pyAt(hook.line), `@${hook.decorator} ${hook.name}`, why[hook.decorator]);
  }

  /** `{placeholders}` become crew inputs; defaults come from the `inputs = {...}` in main.py. */
  private inputs(agents: Loose[], tasks: Loose[]): { name: string; default?: string }[] {
    const names: string[] = [];
    const scan = (text: unknown) => {
      if (typeof text !== 'string') return;
      for (const m of text.matchAll(PLACEHOLDER)) if (!names.includes(m[1])) names.push(m[1]);
    };
    for (const a of agents) [a.role, a.goal, a.backstory].forEach(scan);
    for (const t of tasks) [t.description, t.expectedOutput, t.outputFile].forEach(scan);
    // main.py's inputs come first (in its order, with its defaults), then placeholders it does not give.
    const defaults = this.mainPyInputs();
    const ordered = [...defaults.keys(), ...names.filter((n) => !defaults.has(n))].filter((name) => {
      const ok = /^[A-Za-z_][A-Za-z0-9_-]*$/.test(name);
      if (!ok) this.note(this.files.mainPy ? this.rel(this.files.mainPy) : 'main.py', `input "${name}"`, 'input names may only contain letters, digits, _ and -');
      return ok;
    });
    return ordered.map((name) => (defaults.get(name) !== undefined ? { name, default: defaults.get(name) } : { name }));
  }

  private mainPyInputs(): Map<string, string | undefined> {
    const found = new Map<string, string | undefined>();
    if (!this.files.mainPy) return found;
    const src = this.read(this.files.mainPy);
    // With several crews, only the inputs main.py passes to this class's kickoff are its defaults.
    const m = this.several
      ? new RegExp(`\\b${this.py?.className ?? '$^'}\\s*\\(\\s*\\)\\s*\\.crew\\s*\\(\\s*\\)\\s*\\.kickoff\\w*\\(\\s*inputs\\s*=\\s*\\{`).exec(src)
      : /\binputs\s*=\s*\{/.exec(src);
    if (!m) return found;
    const open = m.index + m[0].length - 1;
    const close = matchingBracket(src, open);
    if (close < 0) return found;
    for (const item of splitTopLevel(src.slice(open + 1, close))) {
      const colon = splitTopLevel(item, ':');
      const key = colon[0] !== undefined ? pyString(colon[0]) : undefined;
      if (key === undefined || colon.length < 2) continue;
      const value = pyLiteral(colon.slice(1).join(':'));
      found.set(key, typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined);
    }
    return found;
  }
}
