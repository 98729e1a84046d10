import { redactKnown } from '../redactSecrets';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { stringify } from 'yaml';
import type { Agent, CrewDocument, KnowledgeSource, Task } from '../../shared/model/crew';
import type { InlineModel, ModelRef } from '../../shared/model/modelRef';
import { modelForCrewAi } from './export/exportModels';
import { toolForCrewAi } from './export/exportTools';
import type { ToolRef } from '../../shared/model/tool';
import { CrewAiExportFailed } from './crewAiErrors';
import { needsLlmObject, type LlmSettings } from './modelNames';
import { pydanticFromSchema, usesPydanticField } from './pydanticSchema';
import { pyQuote } from './pythonSource';
import type { UnmappedItem } from './unmapped';

export interface CrewAiExport {
  /** Files written, relative to the target folder. */
  files: string[];
  /** Everything in the crew that CrewAI has no equivalent for (also listed as comments in the YAML). */
  summary: UnmappedItem[];
  /** The Python package name (src/<package>/). */
  packageName: string;
}

export interface ExportOptions {
  /** Write into a folder that already has files (files of the same name are replaced). */
  overwrite?: boolean;
  /** The workspace's model profiles: a profile an agent names is written as the model it stands for. */
  profiles?: Record<string, InlineModel>;
  /** The workspace the documents live in: the knowledge files and tool files they name are copied along. */
  workspace?: string;
}

type Py = string[];

/**
 * Writes a CrewAI project (pyproject.toml, src/<pkg>/{crew.py, main.py, config/agents.yaml,
 * config/tasks.yaml}) for a crew. Settings CrewAI cannot express are returned in `summary`.
 */
export function exportCrewAi(doc: CrewDocument, dir: string, options: ExportOptions = {}): CrewAiExport {
  const root = resolve(dir);
  if (existsSync(root)) {
    if (!statSync(root).isDirectory()) throw new CrewAiExportFailed(`${root} is a file; give a folder to export into`);
    if (!options.overwrite && readdirSync(root).length > 0) throw new CrewAiExportFailed(`${root} is not empty; choose an empty or new folder`);
  }
  const writer = new ProjectWriter(doc, options);
  const files = writer.render();
  const written: string[] = [];
  for (const [path, content] of files) {
    const full = join(root, ...path.split('/'));
    mkdirSync(join(full, '..'), { recursive: true });
    writeFileSync(full, redactKnown(content));
    written.push(relative(root, full).split(sep).join('/'));
  }
  written.push(...copyAlong(root, writer.copies));
  return { files: written, summary: writer.summary, packageName: writer.pkg };
}

/**
 * Several crews as one CrewAI project, the layout CrewAI's flow template uses:
 * src/<pkg>/crews/<crew>/{crew.py, config/agents.yaml, config/tasks.yaml} per crew (each its own
 * @CrewBase class) and a main.py that kicks them off one after another. `name` names the project
 * (default: the first crew's id). Summary paths are prefixed with the crew id.
 */
export function exportCrewAiCrews(docs: CrewDocument[], dir: string, options: ExportOptions & { name?: string; crewsLayout?: boolean } = {}): CrewAiExport {
  const [first] = docs;
  if (first !== undefined && docs.length === 1 && !options.crewsLayout) return exportCrewAi(first, dir, options);
  const root = resolve(dir);
  if (existsSync(root)) {
    if (!statSync(root).isDirectory()) throw new CrewAiExportFailed(`${root} is a file; give a folder to export into`);
    if (!options.overwrite && readdirSync(root).length > 0) throw new CrewAiExportFailed(`${root} is not empty; choose an empty or new folder`);
  }
  const projectId = options.name ?? first?.id;
  if (projectId === undefined) throw new CrewAiExportFailed('no crews to export');
  const pkgRaw = projectId.toLowerCase().replace(/[^a-z0-9_]/g, '_').replace(/^_+|_+$/g, '');
  const pkg = /^[a-z]/.test(pkgRaw) ? pkgRaw : `crews_${pkgRaw}`;
  const summary: UnmappedItem[] = [];
  const files = new Map<string, string>();
  const writers = docs.map((doc) => new ProjectWriter(doc, options));
  const seen = new Set<string>();
  for (const w of writers) {
    if (seen.has(w.pkg)) throw new CrewAiExportFailed(`two crews would both be written as crews/${w.pkg}; give them different ids`);
    seen.add(w.pkg);
    for (const [path, content] of w.render()) {
      const inside = /^src\/[^/]+\/(crew\.py|config\/agents\.yaml|config\/tasks\.yaml)$/.exec(path);
      if (inside) files.set(`src/${pkg}/crews/${w.pkg}/${inside[1]}`, content);
    }
    files.set(`src/${pkg}/crews/${w.pkg}/__init__.py`, '');
    summary.push(...w.summary.map((item) => ({ ...item, path: `${w.doc.id}: ${item.path}` })));
    // Imported back, a crew of a several-crew project takes its id from its class name.
    const back = w.className.replace(/(?<=[a-z0-9])(?=[A-Z])/g, '_').toLowerCase();
    if (back !== w.doc.id) summary.push({ path: `${w.doc.id}: id`, item: w.doc.id, why: `CrewAI names the crew by its class ${w.className}; imported back its id is "${back}"` });
    if (w.doc.description !== undefined) summary.push({ path: `${w.doc.id}: description`, item: w.doc.description, why: 'only the project (pyproject.toml) has a description in CrewAI; kept as a comment in main.py' });
  }
  files.set('pyproject.toml', ProjectWriter.pyprojectFor(projectId, pkg, undefined));
  files.set(`src/${pkg}/__init__.py`, '');
  files.set(`src/${pkg}/crews/__init__.py`, '');
  files.set(`src/${pkg}/main.py`, severalCrewsMain(pkg, writers));
  const written: string[] = [];
  for (const [path, content] of files) {
    const full = join(root, ...path.split('/'));
    mkdirSync(join(full, '..'), { recursive: true });
    writeFileSync(full, redactKnown(content));
    written.push(relative(root, full).split(sep).join('/'));
  }
  for (const w of writers) written.push(...copyAlong(root, w.copies));
  return { files: written, summary, packageName: pkg };
}

/** main.py of a several-crew project: each crew kicked off in turn with its inputs (defaults as literals). */
function severalCrewsMain(pkg: string, writers: ProjectWriter[]): string {
  const lines = ['#!/usr/bin/env python', `"""Runs ${writers.length} crews one after another (exported by Crewdeck)."""`];
  for (const w of writers) lines.push(`from ${pkg}.crews.${w.pkg}.crew import ${w.className}`);
  lines.push('', '', 'def run():');
  for (const w of writers) {
    if (w.doc.description) lines.push(`    # ${oneLine(`${w.doc.name}: ${w.doc.description}`)}`);
    const inputs = (w.doc.inputs ?? []).map((input) => `${pyQuote(input.name)}: ${input.default !== undefined ? pyQuote(input.default) : `input(${pyQuote(`${input.name}: `)})`}`);
    lines.push(`    ${w.className}().crew().kickoff(inputs={${inputs.join(', ')}})`);
  }
  lines.push('', '', 'if __name__ == "__main__":', '    run()', '');
  return lines.join('\n');
}

/** Fields the exporter handles (writes, or reports when CrewAI cannot hold them). */
const AGENT_FIELDS = ['id', 'role', 'goal', 'backstory', 'llm', 'tools', 'allowDelegation', 'maxIter', 'maxRpm', 'maxExecutionTimeMs', 'memory', 'cache', 'respectContextWindow', 'skills', 'knowledge'] as const;
const TASK_FIELDS = ['id', 'name', 'description', 'expectedOutput', 'agentId', 'context', 'async', 'humanInput', 'guardrails', 'guardrailMaxRetries', 'output', 'outputFile', 'condition', 'tools', 'tests'] as const;
const CREW_FIELDS = ['kind', 'version', 'id', 'name', 'description', 'process', 'manager', 'agents', 'tasks', 'memory', 'knowledge', 'knowledgeSettings', 'inputs', 'maxRpm', 'planning', 'layout'] as const;

/** crewai.knowledge.source.<module> of each knowledge source class the exporter writes. */
const KNOWLEDGE_MODULES: Record<string, string> = {
  PDFKnowledgeSource: 'pdf_knowledge_source',
  CSVKnowledgeSource: 'csv_knowledge_source',
  JSONKnowledgeSource: 'json_knowledge_source',
  TextFileKnowledgeSource: 'text_file_knowledge_source',
  StringKnowledgeSource: 'string_knowledge_source',
};

const pythonName = (id: string) => {
  const name = id.replace(/[^A-Za-z0-9_]/g, '_');
  return /^[0-9]/.test(name) ? `_${name}` : name;
};

class ProjectWriter {
  readonly summary: UnmappedItem[] = [];
  readonly pkg: string;
  readonly className: string;
  private readonly agentMethods = new Map<string, string>();
  private readonly taskMethods = new Map<string, string>();
  private readonly llmMethods: { name: string; model: string; settings: LlmSettings }[] = [];
  private readonly models: string[] = [];
  private readonly toolClasses = new Set<string>();
  private readonly knowledgeClasses = new Set<string>();
  /** Module-level `name = StringKnowledgeSource(...)` lines: a text source keeps its name as the variable. */
  private readonly knowledgeVars: string[] = [];
  private usesOs = false;

  /** Workspace files the crew names (knowledge, tool files): project-relative target → absolute source. */
  readonly copies = new Map<string, string>();

  constructor(
    readonly doc: CrewDocument,
    private readonly options: ExportOptions = {},
  ) {
    const pkg = doc.id.toLowerCase().replace(/[^a-z0-9_]/g, '_').replace(/^_+|_+$/g, '');
    this.pkg = /^[a-z]/.test(pkg) ? pkg : `crew_${pkg}`;
    this.className = this.pkg.split('_').filter(Boolean).map((p) => p.charAt(0).toUpperCase() + p.slice(1)).join('') || 'Crew';
    const taken = new Set(['crew', 'agents', 'tasks', 'agents_config', 'tasks_config']);
    const unique = (id: string) => {
      let name = pythonName(id);
      for (let n = 2; taken.has(name); n += 1) name = `${pythonName(id)}_${n}`;
      taken.add(name);
      return name;
    };
    doc.agents.forEach((a) => this.agentMethods.set(a.id, unique(a.id)));
    doc.tasks.forEach((t) => this.taskMethods.set(t.id, unique(t.id)));
  }

  private skip(path: string, item: string, why: string): void {
    this.summary.push({ path, item, why });
  }

  /** Fields this exporter does not know (added to the schema later) are reported, never dropped silently. */
  private unknownFields(value: object, known: readonly string[], path: string): void {
    for (const [key, v] of Object.entries(value)) {
      if (v !== undefined && !known.includes(key)) this.skip(path ? `${path}.${key}` : key, JSON.stringify(v).slice(0, 200), 'a Crewdeck setting with no CrewAI equivalent');
    }
  }

  render(): Map<string, string> {
    const { doc } = this;
    const agentsYaml = Object.fromEntries(doc.agents.map((a, i) => [a.id, this.agentYaml(a, i)]));
    const tasksYaml = Object.fromEntries(doc.tasks.map((t, i) => [t.id, this.taskYaml(t, i)]));
    const crewPy = this.crewPy();
    const base = `src/${this.pkg}`;
    return new Map([
      ['pyproject.toml', this.pyproject()],
      [`${base}/__init__.py`, ''],
      [`${base}/main.py`, this.mainPy()],
      [`${base}/crew.py`, crewPy],
      [`${base}/tools/__init__.py`, ''],
      [`${base}/config/agents.yaml`, this.yamlFile(agentsYaml, 'agents')],
      [`${base}/config/tasks.yaml`, this.yamlFile(tasksYaml, 'tasks')],
    ]);
  }

  private yamlFile(value: Record<string, unknown>, kind: 'agents' | 'tasks'): string {
    const header = [oneLine(`# ${kind === 'agents' ? 'Agents' : 'Tasks'} of "${this.doc.name}", exported by Crewdeck.`)];
    const notes = this.summary.filter((s) => s.path.startsWith(`${kind}.`));
    if (notes.length > 0) {
      header.push('# Not exported (CrewAI has no equivalent):');
      for (const n of notes) header.push(oneLine(`#   ${n.path} ${n.item}: ${n.why}`));
    }
    return `${header.join('\n')}\n\n${stringify(value, { lineWidth: 0 })}`;
  }

  // ---- agents --------------------------------------------------------------------------------------

  private agentYaml(agent: Agent, i: number): Record<string, unknown> {
    const path = `agents.${i}`;
    const out: Record<string, unknown> = { role: agent.role, goal: agent.goal, backstory: agent.backstory };
    if (agent.llm !== undefined) {
      const llm = this.llm(agent.llm, `${path}.llm`, `${this.agentMethods.get(agent.id)}_llm`);
      if (llm !== undefined) out.llm = llm.yaml;
    }
    out.allow_delegation = agent.allowDelegation;
    out.max_iter = agent.maxIter;
    if (agent.maxRpm !== undefined) out.max_rpm = agent.maxRpm;
    if (agent.maxExecutionTimeMs !== undefined) out.max_execution_time = agent.maxExecutionTimeMs / 1000;
    out.respect_context_window = agent.respectContextWindow;
    out.cache = agent.cache;
    if (agent.memory !== undefined) out.memory = agent.memory;
    if (agent.skills?.length) this.skip(`${path}.skills`, `${agent.skills.length} skill(s)`, 'CrewAI skills are configured in Python; add them to the agent by hand');
    this.toolsFor(agent.tools, `${path}.tools`);
    this.unknownFields(agent, AGENT_FIELDS, path);
    return out;
  }

  /** A model as CrewAI writes it: a model string, or the name of an @llm method holding LLM(...). */
  private llm(ref: ModelRef, path: string, methodName: string): { yaml: string; code: string } | undefined {
    const mapped = modelForCrewAi(ref, this.options.profiles);
    if (!mapped.ok) {
      this.skip(path, JSON.stringify(ref), `${mapped.why}; CrewAI will use its default model`);
      return undefined;
    }
    for (const u of mapped.unsupported) this.skip(`${path}.${u.split(':')[0]}`, u, 'model setting with no CrewAI LLM equivalent');
    if (!needsLlmObject(mapped.settings)) return { yaml: mapped.model, code: pyQuote(mapped.model) };
    this.llmMethods.push({ name: methodName, model: mapped.model, settings: mapped.settings });
    if (mapped.settings.apiKeyEnv) this.usesOs = true;
    return { yaml: methodName, code: `self.${methodName}()` };
  }

  /** Tools as crewai_tools classes (the tools' mapping table); what CrewAI has no class for is listed. */
  private toolsFor(tools: ToolRef[] | undefined, path: string): string[] {
    const out: string[] = [];
    (tools ?? []).forEach((ref, j) => {
      const mapped = toolForCrewAi(ref);
      if (!mapped.ok) {
        this.skip(`${path}.${j}`, ref.tool, mapped.why);
        return;
      }
      this.toolClasses.add(mapped.className);
      if (ref.requiresApproval) this.skip(`${path}.${j}.requiresApproval`, ref.tool, 'CrewAI has no approval step before a tool call');
      if (mapped.lost) this.skip(`${path}.${j}.config`, `${ref.tool} ${JSON.stringify(ref.config ?? {})}`, mapped.lost);
      for (const key of ['path', 'directory']) {
        const file = (ref.config as Record<string, unknown> | undefined)?.[key];
        if (typeof file === 'string') this.copyAlong(file);
      }
      out.push(mapped.code);
    });
    return out;
  }

  /** A workspace file the crew names, copied to the same path in the project (CrewAI runs from the project folder). */
  private copyAlong(path: string): void {
    if (this.options.workspace) this.copies.set(path, join(this.options.workspace, ...path.split('/')));
  }

  // ---- tasks ---------------------------------------------------------------------------------------

  private taskYaml(task: Task, i: number): Record<string, unknown> {
    const path = `tasks.${i}`;
    const out: Record<string, unknown> = {};
    if (task.name !== undefined) out.name = task.name;
    out.description = task.description;
    out.expected_output = task.expectedOutput;
    if (task.agentId !== undefined) out.agent = this.agentMethods.get(task.agentId);
    if (task.context === 'none') out.context = [];
    else if (task.context !== undefined) out.context = task.context.map((id) => this.taskMethods.get(id) ?? id);
    out.async_execution = task.async;
    out.human_input = task.humanInput;
    if (task.outputFile !== undefined) out.output_file = task.outputFile;
    if (task.output?.format === 'markdown') out.markdown = true;
    if (task.output?.format === 'json') {
      const model = task.output.schema ? pydanticFromSchema(this.outputClass(task), task.output.schema) : undefined;
      if (model) this.models.push(model);
      else this.skip(`${path}.output`, task.output.schema ? 'JSON output schema' : 'JSON output', task.output.schema ? 'the schema is richer than a plain pydantic model this exporter writes (str/int/float/bool/list fields); write the output class by hand' : 'CrewAI needs a pydantic class for JSON output; add output_json by hand');
    }
    const criteria: string[] = [];
    task.guardrails.forEach((g, j) => {
      if (g.type === 'llm') {
        criteria.push(g.criterion);
        if (g.llm !== undefined) this.skip(`${path}.guardrails.${j}.llm`, JSON.stringify(g.llm), 'CrewAI checks guardrail text with the agent\'s model');
      } else {
        this.skip(`${path}.guardrails.${j}`, `guardrail (${g.type}) ${JSON.stringify(g)}`, 'CrewAI runs such checks as Python functions; only text (llm) guardrails are exported');
      }
    });
    if (criteria.length === 1) out.guardrail = criteria[0];
    else if (criteria.length > 1) out.guardrails = criteria;
    if (task.guardrails.length > 0 || task.guardrailMaxRetries !== 3) out.guardrail_max_retries = task.guardrailMaxRetries;
    if (task.condition !== undefined) this.skip(`${path}.condition`, JSON.stringify(task.condition), 'CrewAI conditional tasks take a Python function; add a ConditionalTask by hand');
    this.toolsFor(task.tools, `${path}.tools`);
    if (task.tests !== undefined) this.skip(`${path}.tests`, `${task.tests.checks.length} check(s)`, 'crew tests (crewdeck test) exist only in Crewdeck');
    this.unknownFields(task, TASK_FIELDS, path);
    return out;
  }

  /**
   * Knowledge sources as CrewAI objects: files of the workspace's knowledge/ folder (CrewAI reads file
   * sources from the project's knowledge/ folder) and text; anything else is listed in the summary.
   */
  private knowledgeCode(sources: KnowledgeSource[] | undefined, path: string): string[] {
    const out: string[] = [];
    (sources ?? []).forEach((source, i) => {
      if (source.type === 'text') {
        this.knowledgeClasses.add('StringKnowledgeSource');
        const call = `StringKnowledgeSource(content=${pyQuote(source.text)})`;
        if (/^[A-Za-z_]\w*$/.test(source.name) && !this.knowledgeVars.some((v) => v.startsWith(`${source.name} =`))) {
          this.knowledgeVars.push(`${source.name} = ${call}`);
          out.push(source.name);
        } else {
          out.push(call);
          this.skip(`${path}.${i}.name`, source.name, 'CrewAI string sources have no name (only a Python variable name can carry one)');
        }
        return;
      }
      if (source.type === 'file' && /^knowledge\//.test(source.path)) {
        const className = /\.pdf$/i.test(source.path) ? 'PDFKnowledgeSource' : /\.csv$/i.test(source.path) ? 'CSVKnowledgeSource' : /\.json$/i.test(source.path) ? 'JSONKnowledgeSource' : 'TextFileKnowledgeSource';
        this.knowledgeClasses.add(className);
        out.push(`${className}(file_paths=[${pyQuote(source.path.slice('knowledge/'.length))}])`);
        this.copyAlong(source.path);
        if (source.name !== undefined) this.skip(`${path}.${i}.name`, source.name, 'CrewAI file sources are named by their file');
        return;
      }
      this.skip(
        `${path}.${i}`,
        JSON.stringify(source),
        source.type === 'url' ? 'CrewAI reads web pages through a crewai_tools RAG tool, not a knowledge source; add it by hand' : 'CrewAI file sources live in the project\'s knowledge/ folder; move the file under knowledge/ in the workspace',
      );
    });
    return out;
  }

  private outputClass(task: Task): string {
    return `${pythonName(task.id).split('_').filter(Boolean).map((p) => p.charAt(0).toUpperCase() + p.slice(1)).join('')}Output`;
  }

  // ---- crew ----------------------------------------------------------------------------------------

  private crewLevelSummary(): void {
    const { doc } = this;
    const memoryWhy = 'CrewAI crew memory is exported as an on/off switch only (memory=True)';
    if (doc.memory && !doc.memory.enabled) this.skip('memory', 'memory turned off', 'exported as no memory');
    if (doc.memory?.scope !== undefined) this.skip('memory.scope', doc.memory.scope, memoryWhy);
    if (doc.memory && doc.memory.commit !== 'after-guardrail') this.skip('memory.commit', doc.memory.commit, memoryWhy);
    if (doc.memory?.llm !== undefined) this.skip('memory.llm', JSON.stringify(doc.memory.llm), memoryWhy);
    if (doc.knowledgeSettings) this.skip('knowledgeSettings', JSON.stringify(doc.knowledgeSettings), 'no CrewAI equivalent');
    if (doc.layout) this.skip('layout', `${Object.keys(doc.layout).length} canvas position(s)`, 'canvas layout exists only in Crewdeck');
    if (doc.manager?.delegateTo === 'all') this.skip('manager.delegateTo', 'all', 'the CrewAI manager always delegates to every agent');
    this.unknownFields(doc, CREW_FIELDS, '');
    doc.inputs?.forEach((input, i) => {
      if (input.description) this.skip(`inputs.${i}.description`, input.description, 'kept as a comment in main.py only');
    });
  }

  private crewPy(): string {
    const { doc } = this;
    const agentLines: Py = [];
    doc.agents.forEach((a, i) => {
      const method = this.agentMethods.get(a.id)!;
      const tools = this.toolsForCode(a.tools);
      agentLines.push('', '    @agent', `    def ${method}(self) -> Agent:`, '        return Agent(', `            config=self.agents_config[${pyQuote(a.id)}],  # type: ignore[index]`);
      if (tools.length > 0) agentLines.push(`            tools=[${tools.join(', ')}],`);
      const knowledge = this.knowledgeCode(a.knowledge, `agents.${i}.knowledge`);
      if (knowledge.length > 0) agentLines.push(`            knowledge_sources=[${knowledge.join(', ')}],`);
      agentLines.push('        )');
      void i;
    });
    const taskLines: Py = [];
    doc.tasks.forEach((t) => {
      const method = this.taskMethods.get(t.id)!;
      taskLines.push('', '    @task', `    def ${method}(self) -> Task:`, '        return Task(', `            config=self.tasks_config[${pyQuote(t.id)}],  # type: ignore[index]`);
      const tools = this.toolsForCode(t.tools);
      if (tools.length > 0) taskLines.push(`            tools=[${tools.join(', ')}],`);
      if (t.output?.format === 'json' && t.output.schema && this.models.some((m) => m.startsWith(`class ${this.outputClass(t)}(`))) {
        // An imported task keeps the field it was declared with (output_json or output_pydantic).
        taskLines.push(`            ${t.output.crewai ?? 'output_pydantic'}=${this.outputClass(t)},`);
      }
      taskLines.push('        )');
    });

    const crewArgs: string[] = [];
    const managerId = doc.manager && 'agentId' in doc.manager ? doc.manager.agentId : undefined;
    if (managerId) crewArgs.push(`agents=[${doc.agents.filter((a) => a.id !== managerId).map((a) => `self.${this.agentMethods.get(a.id)}()`).join(', ')}],`);
    else crewArgs.push('agents=self.agents,  # Automatically created by the @agent decorator');
    crewArgs.push('tasks=self.tasks,  # Automatically created by the @task decorator');
    crewArgs.push(`process=Process.${doc.process},`);
    if (managerId) crewArgs.push(`manager_agent=self.${this.agentMethods.get(managerId)}(),`);
    else if (doc.manager && 'llm' in doc.manager && doc.manager.llm !== undefined) {
      const llm = this.llm(doc.manager.llm, 'manager.llm', 'manager_llm');
      if (llm) crewArgs.push(`manager_llm=${llm.code},`);
    }
    if (doc.planning?.enabled) {
      crewArgs.push('planning=True,');
      if (doc.planning.llm !== undefined) {
        const llm = this.llm(doc.planning.llm, 'planning.llm', 'planning_llm');
        if (llm) crewArgs.push(`planning_llm=${llm.code},`);
      }
    }
    if (doc.memory?.enabled) crewArgs.push('memory=True,');
    if (doc.maxRpm !== undefined) crewArgs.push(`max_rpm=${doc.maxRpm},`);
    const knowledge = this.knowledgeCode(doc.knowledge, 'knowledge');
    if (knowledge.length > 0) crewArgs.push(`knowledge_sources=[${knowledge.join(', ')}],`);

    const llmLines: Py = [];
    for (const m of this.llmMethods) {
      const args = [`model=${pyQuote(m.model)}`];
      const s = m.settings;
      if (s.baseUrl !== undefined) args.push(`base_url=${pyQuote(s.baseUrl)}`);
      if (s.apiKeyEnv !== undefined) args.push(`api_key=os.environ.get(${pyQuote(s.apiKeyEnv)})`);
      if (s.temperature !== undefined) args.push(`temperature=${s.temperature}`);
      if (s.maxTokens !== undefined) args.push(`max_tokens=${s.maxTokens}`);
      if (s.stream !== undefined) args.push(`stream=${s.stream ? 'True' : 'False'}`);
      if (s.timeoutMs !== undefined) args.push(`timeout=${s.timeoutMs / 1000}`);
      llmLines.push('', '    @llm', `    def ${m.name}(self) -> LLM:`, `        return LLM(${args.join(', ')})`);
    }

    const decorators = ['CrewBase', 'agent', 'crew', 'task', ...(this.llmMethods.length > 0 ? ['llm'] : [])];
    const header: Py = [
      `"""CrewAI project for "${docstringText(doc.name)}", exported by Crewdeck."""`,
      ...this.crewNotes(),
      ...(this.usesOs ? ['import os', ''] : []),
      ...(this.llmMethods.length > 0 ? ['from crewai import LLM, Agent, Crew, Process, Task'] : ['from crewai import Agent, Crew, Process, Task']),
      `from crewai.project import ${decorators.join(', ')}`,
      ...(this.toolClasses.size > 0 ? [`from crewai_tools import ${[...this.toolClasses].sort().join(', ')}`] : []),
      ...[...this.knowledgeClasses].sort().map((c) => `from crewai.knowledge.source.${KNOWLEDGE_MODULES[c]} import ${c}`),
      ...(this.models.length > 0 ? ['from typing import Optional', '', `from pydantic import BaseModel${this.models.some(usesPydanticField) ? ', Field' : ''}`] : []),
      ...(this.knowledgeVars.length > 0 ? ['', ...this.knowledgeVars] : []),
    ];
    const models = this.models.flatMap((m) => ['', '', ...m.trimEnd().split('\n')]);
    const body: Py = [
      '',
      '',
      '@CrewBase',
      `class ${this.className}:`,
      `    """${docstringText(doc.name)}"""`,
      '',
      "    agents_config = 'config/agents.yaml'",
      "    tasks_config = 'config/tasks.yaml'",
      ...llmLines,
      ...agentLines,
      ...taskLines,
      '',
      '    @crew',
      '    def crew(self) -> Crew:',
      '        return Crew(',
      ...crewArgs.map((a) => `            ${a}`),
      '        )',
    ];
    return `${[...header, ...models, ...body].join('\n')}\n`;
  }

  /** Crew-level settings CrewAI lacks, as comments (computed before crew.py is assembled). */
  private crewNotes(): Py {
    this.crewLevelSummary();
    const notes = this.summary.filter((s) => !/^(agents|tasks)\./.test(s.path));
    if (notes.length === 0) return [];
    return ['# Not exported (CrewAI has no equivalent):', ...notes.map((n) => oneLine(`#   ${n.path} ${n.item}: ${n.why}`)), ''];
  }

  /** Tool constructor calls for code; reported tools were already noted by toolsFor (YAML pass). */
  private toolsForCode(tools: ToolRef[] | undefined): string[] {
    return (tools ?? []).flatMap((ref) => {
      const mapped = toolForCrewAi(ref);
      return mapped.ok ? [mapped.code] : [];
    });
  }

  private mainPy(): string {
    const inputs = this.doc.inputs ?? [];
    const lines = inputs.map((input) => {
      const value = input.default !== undefined ? pyQuote(input.default) : `input(${pyQuote(`${input.name}: `)})`;
      const comment = input.description ? `  # ${oneLine(input.description)}` : '';
      return `        ${pyQuote(input.name)}: ${value},${comment}`;
    });
    return [
      '#!/usr/bin/env python',
      `"""Runs the "${this.doc.name.replace(/"/g, "'")}" crew (exported by Crewdeck)."""`,
      `from ${this.pkg}.crew import ${this.className}`,
      '',
      '',
      'def run():',
      '    inputs = {',
      ...lines,
      '    }',
      `    ${this.className}().crew().kickoff(inputs=inputs)`,
      '',
      '',
      'if __name__ == "__main__":',
      '    run()',
      '',
    ].join('\n');
  }

  private pyproject(): string {
    return ProjectWriter.pyprojectFor(this.doc.id, this.pkg, this.doc.description);
  }

  static pyprojectFor(name: string, pkg: string, description: string | undefined): string {
    return [
      '[project]',
      `name = ${JSON.stringify(name)}`,
      'version = "0.1.0"',
      ...(description !== undefined ? [`description = ${JSON.stringify(description)}`] : []),
      'requires-python = ">=3.10,<3.14"',
      'dependencies = ["crewai[tools]>=0.150.0"]',
      '',
      '[project.scripts]',
      `${pkg} = "${pkg}.main:run"`,
      `run_crew = "${pkg}.main:run"`,
      '',
      '[build-system]',
      'requires = ["hatchling"]',
      'build-backend = "hatchling.build"',
      '',
      '[tool.crewai]',
      'type = "crew"',
      '',
    ].join('\n');
  }
}

/** Copies the files a crew names (those its workspace has) into the project; returns what was copied. */
function copyAlong(root: string, copies: Map<string, string>): string[] {
  const out: string[] = [];
  for (const [path, from] of copies) {
    if (!existsSync(from) || !statSync(from).isFile()) continue;
    const target = join(root, ...path.split('/'));
    mkdirSync(dirname(target), { recursive: true });
    // Text goes through the same redaction as every other file an export writes; binary files are copied.
    if (/\.(txt|md|markdown|csv|json|ya?ml|xml|html?)$/i.test(path)) writeFileSync(target, redactKnown(readFileSync(from, 'utf8')));
    else copyFileSync(from, target);
    out.push(path);
  }
  return out;
}

/**
 * Text for a `#` comment (Python or YAML): every character either language reads as a line break
 * (Python also ends a line at a lone CR; PyYAML at NEL, LS and PS) becomes a space, so a crew's text
 * can never end the comment and become code or configuration.
 */
export function oneLine(text: string): string {
  return text.replace(/[\r\n\u0085\u2028\u2029]/g, ' ');
}

/** Text inside a `"""…"""` docstring: backslashes and every double quote escaped, so it cannot close it. */
function docstringText(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/"/g, '\\"');
}
