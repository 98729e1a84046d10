import { join } from 'node:path';
import { stringify } from 'yaml';
import type { CrewDocument } from '../../../shared/model/crew';
import type { InlineModel, ModelRef } from '../../../shared/model/modelRef';
import type { ToolRef } from '../../../shared/model/tool';
import { needsLlmObject } from '../modelNames';
import { pyQuote } from '../pythonSource';
import type { UnmappedItem } from '../unmapped';
import { crewPy, type AgentMethod, type LlmMethod, type TaskMethod } from './crewPy';
import { agentYaml, taskYaml, type CrewYamlWriter } from './crewYaml';
import { modelForCrewAi } from './exportModels';
import { toolForCrewAi } from './exportTools';
import { KnowledgeCode, type KnowledgeWriter } from './knowledgeCode';
import { crewMainPy } from './mainPy';
import { pyprojectToml } from './pyproject';
import { crewClassName, outputClassName, packageName, pythonName } from './pythonNames';
import { oneLine } from './safeText';

/** What the writer needs from the export options. */
export interface WriterOptions {
  /** The workspace's model profiles: a profile an agent names is written as the model it stands for. */
  profiles?: Record<string, InlineModel>;
  /** The workspace the documents live in: the knowledge files and tool files they name are copied along. */
  workspace?: string;
}

type Py = string[];

const CREW_FIELDS = ['kind', 'version', 'id', 'name', 'description', 'process', 'manager', 'agents', 'tasks', 'memory', 'knowledge', 'knowledgeSettings', 'inputs', 'maxRpm', 'planning', 'layout'] as const;

/**
 * The files of a CrewAI project for one crew (pyproject.toml, src/<pkg>/{crew.py, main.py,
 * config/agents.yaml, config/tasks.yaml}); what CrewAI cannot express is collected in `summary`.
 */
export class ProjectWriter implements CrewYamlWriter, KnowledgeWriter {
  readonly summary: UnmappedItem[] = [];
  readonly pkg: string;
  readonly className: string;
  readonly agentMethods = new Map<string, string>();
  readonly taskMethods = new Map<string, string>();
  private readonly llmMethods: LlmMethod[] = [];
  readonly models: string[] = [];
  private readonly toolClasses = new Set<string>();
  private readonly knowledge = new KnowledgeCode(this);
  private usesOs = false;

  /** Workspace files the crew names (knowledge, tool files): project-relative target → absolute source. */
  readonly copies = new Map<string, string>();

  constructor(
    readonly doc: CrewDocument,
    private readonly options: WriterOptions = {},
  ) {
    this.pkg = packageName(doc.id, 'crew_');
    this.className = crewClassName(this.pkg);
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

  skip(path: string, item: string, why: string): void {
    this.summary.push({ path, item, why });
  }

  /** Fields this exporter does not know (added to the schema later) are reported, never dropped silently. */
  unknownFields(value: object, known: readonly string[], path: string): void {
    for (const [key, v] of Object.entries(value)) {
      if (v !== undefined && !known.includes(key)) this.skip(path ? `${path}.${key}` : key, JSON.stringify(v).slice(0, 200), 'a Crewdeck setting with no CrewAI equivalent');
    }
  }

  render(): Map<string, string> {
    const { doc } = this;
    const agentsYaml = Object.fromEntries(doc.agents.map((a, i) => [a.id, agentYaml(this, a, i)]));
    const tasksYaml = Object.fromEntries(doc.tasks.map((t, i) => [t.id, taskYaml(this, t, i)]));
    const crewPy = this.crewPy();
    const base = `src/${this.pkg}`;
    return new Map([
      ['pyproject.toml', pyprojectToml(this.doc.id, this.pkg, this.doc.description)],
      [`${base}/__init__.py`, ''],
      [`${base}/main.py`, crewMainPy(this)],
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

  /** A model as CrewAI writes it: a model string, or the name of an @llm method holding LLM(...). */
  llm(ref: ModelRef, path: string, methodName: string): { yaml: string; code: string } | undefined {
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
  toolsFor(tools: ToolRef[] | undefined, path: string): string[] {
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
  copyAlong(path: string): void {
    if (this.options.workspace) this.copies.set(path, join(this.options.workspace, ...path.split('/')));
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
    return crewPy({
      name: this.doc.name,
      className: this.className,
      agents: this.agentMethodParts(),
      tasks: this.taskMethodParts(),
      crewArgs: this.crewArgs(),
      notes: this.crewNotes(),
      usesOs: this.usesOs,
      llmMethods: this.llmMethods,
      toolClasses: this.toolClasses,
      knowledgeImports: this.knowledge.importLines(),
      knowledgeVars: this.knowledge.vars,
      models: this.models,
    });
  }

  private agentMethodParts(): AgentMethod[] {
    return this.doc.agents.map((a, i) => ({
      id: a.id,
      method: this.agentMethods.get(a.id)!,
      tools: this.toolsForCode(a.tools),
      knowledge: this.knowledge.code(a.knowledge, `agents.${i}.knowledge`),
    }));
  }

  private taskMethodParts(): TaskMethod[] {
    return this.doc.tasks.map((t) => {
      const part: TaskMethod = { id: t.id, method: this.taskMethods.get(t.id)!, tools: this.toolsForCode(t.tools) };
      if (t.output?.format === 'json' && t.output.schema && this.models.some((m) => m.startsWith(`class ${outputClassName(t.id)}(`))) {
        // An imported task keeps the field it was declared with (output_json or output_pydantic).
        part.output = { field: t.output.crewai ?? 'output_pydantic', className: outputClassName(t.id) };
      }
      return part;
    });
  }

  /** The Crew(...) arguments: agents, tasks, process, the manager, planning, memory, rate limit, knowledge. */
  private crewArgs(): string[] {
    const { doc } = this;
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
    const knowledge = this.knowledge.code(doc.knowledge, 'knowledge');
    if (knowledge.length > 0) crewArgs.push(`knowledge_sources=[${knowledge.join(', ')}],`);
    return crewArgs;
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
}
