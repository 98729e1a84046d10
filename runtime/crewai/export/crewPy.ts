import type { LlmSettings } from '../modelNames';
import { usesPydanticField } from '../pydanticSchema';
import { pyQuote } from '../pythonSource';
import { docstringText } from './safeText';

type Py = string[];

/** An @llm method of crew.py: the LLM(...) a model string cannot express. */
export interface LlmMethod {
  name: string;
  model: string;
  settings: LlmSettings;
}

/** An @agent method: the YAML entry it loads, its tool constructor calls and its knowledge sources. */
export interface AgentMethod {
  id: string;
  method: string;
  tools: string[];
  knowledge: string[];
}

/** A @task method: the YAML entry it loads, its tools and the pydantic output field (output_json or output_pydantic). */
export interface TaskMethod {
  id: string;
  method: string;
  tools: string[];
  output?: { field: string; className: string };
}

/** Everything crew.py is assembled from, gathered (and noted in the summary) by the project writer. */
export interface CrewPyParts {
  name: string;
  className: string;
  agents: AgentMethod[];
  tasks: TaskMethod[];
  /** The Crew(...) arguments, one a line. */
  crewArgs: string[];
  /** Comment lines on the crew-level settings CrewAI lacks. */
  notes: Py;
  usesOs: boolean;
  llmMethods: readonly LlmMethod[];
  toolClasses: ReadonlySet<string>;
  knowledgeImports: string[];
  knowledgeVars: readonly string[];
  /** The pydantic output classes, as Python source. */
  models: readonly string[];
}

/** crew.py: the imports, the output classes and the @CrewBase class with its @llm, @agent, @task and @crew methods. */
export function crewPy(p: CrewPyParts): string {
  const models = p.models.flatMap((m) => ['', '', ...m.trimEnd().split('\n')]);
  return `${[...crewPyHeader(p), ...models, ...crewClass(p)].join('\n')}\n`;
}

function crewPyHeader(p: CrewPyParts): Py {
  const decorators = ['CrewBase', 'agent', 'crew', 'task', ...(p.llmMethods.length > 0 ? ['llm'] : [])];
  return [
    `"""CrewAI project for "${docstringText(p.name)}", exported by Crewdeck."""`,
    ...p.notes,
    ...(p.usesOs ? ['import os', ''] : []),
    ...(p.llmMethods.length > 0 ? ['from crewai import LLM, Agent, Crew, Process, Task'] : ['from crewai import Agent, Crew, Process, Task']),
    `from crewai.project import ${decorators.join(', ')}`,
    ...(p.toolClasses.size > 0 ? [`from crewai_tools import ${[...p.toolClasses].sort().join(', ')}`] : []),
    ...p.knowledgeImports,
    ...(p.models.length > 0 ? ['from typing import Optional', '', `from pydantic import BaseModel${p.models.some(usesPydanticField) ? ', Field' : ''}`] : []),
    ...(p.knowledgeVars.length > 0 ? ['', ...p.knowledgeVars] : []),
  ];
}

function crewClass(p: CrewPyParts): Py {
  return [
    '',
    '',
    '@CrewBase',
    `class ${p.className}:`,
    `    """${docstringText(p.name)}"""`,
    '',
    "    agents_config = 'config/agents.yaml'",
    "    tasks_config = 'config/tasks.yaml'",
    ...p.llmMethods.flatMap(llmMethodLines),
    ...p.agents.flatMap(agentMethodLines),
    ...p.tasks.flatMap(taskMethodLines),
    '',
    '    @crew',
    '    def crew(self) -> Crew:',
    '        return Crew(',
    ...p.crewArgs.map((a) => `            ${a}`),
    '        )',
  ];
}

function llmMethodLines(m: LlmMethod): Py {
  const args = [`model=${pyQuote(m.model)}`];
  const s = m.settings;
  if (s.baseUrl !== undefined) args.push(`base_url=${pyQuote(s.baseUrl)}`);
  if (s.apiKeyEnv !== undefined) args.push(`api_key=os.environ.get(${pyQuote(s.apiKeyEnv)})`);
  if (s.temperature !== undefined) args.push(`temperature=${s.temperature}`);
  if (s.maxTokens !== undefined) args.push(`max_tokens=${s.maxTokens}`);
  if (s.stream !== undefined) args.push(`stream=${s.stream ? 'True' : 'False'}`);
  if (s.timeoutMs !== undefined) args.push(`timeout=${s.timeoutMs / 1000}`);
  return ['', '    @llm', `    def ${m.name}(self) -> LLM:`, `        return LLM(${args.join(', ')})`];
}

function agentMethodLines(a: AgentMethod): Py {
  const lines: Py = ['', '    @agent', `    def ${a.method}(self) -> Agent:`, '        return Agent(', `            config=self.agents_config[${pyQuote(a.id)}],  # type: ignore[index]`];
  if (a.tools.length > 0) lines.push(`            tools=[${a.tools.join(', ')}],`);
  if (a.knowledge.length > 0) lines.push(`            knowledge_sources=[${a.knowledge.join(', ')}],`);
  lines.push('        )');
  return lines;
}

function taskMethodLines(t: TaskMethod): Py {
  const lines: Py = ['', '    @task', `    def ${t.method}(self) -> Task:`, '        return Task(', `            config=self.tasks_config[${pyQuote(t.id)}],  # type: ignore[index]`];
  if (t.tools.length > 0) lines.push(`            tools=[${t.tools.join(', ')}],`);
  if (t.output) lines.push(`            ${t.output.field}=${t.output.className},`);
  lines.push('        )');
  return lines;
}
