import type { Agent, Task } from '../../../shared/model/crew';
import type { ModelRef } from '../../../shared/model/modelRef';
import type { ToolRef } from '../../../shared/model/tool';
import { pydanticFromSchema } from '../pydanticSchema';
import { outputClassName } from './pythonNames';

/** What agents.yaml and tasks.yaml are written with: the project writer's names, models, tools and notes. */
export interface CrewYamlWriter {
  readonly agentMethods: ReadonlyMap<string, string>;
  readonly taskMethods: ReadonlyMap<string, string>;
  /** The pydantic classes of crew.py; a task's JSON output schema adds one. */
  readonly models: string[];
  skip(path: string, item: string, why: string): void;
  unknownFields(value: object, known: readonly string[], path: string): void;
  llm(ref: ModelRef, path: string, methodName: string): { yaml: string; code: string } | undefined;
  toolsFor(tools: ToolRef[] | undefined, path: string): string[];
}

/** Fields the exporter handles (writes, or reports when CrewAI cannot hold them). */
const AGENT_FIELDS = ['id', 'role', 'goal', 'backstory', 'llm', 'tools', 'allowDelegation', 'maxIter', 'maxRpm', 'maxExecutionTimeMs', 'memory', 'cache', 'respectContextWindow', 'skills', 'knowledge'] as const;
const TASK_FIELDS = ['id', 'name', 'description', 'expectedOutput', 'agentId', 'context', 'async', 'humanInput', 'guardrails', 'guardrailMaxRetries', 'output', 'outputFile', 'condition', 'tools', 'tests'] as const;

/** An agent's entry of agents.yaml. */
export function agentYaml(w: CrewYamlWriter, agent: Agent, i: number): Record<string, unknown> {
  const path = `agents.${i}`;
  const out: Record<string, unknown> = { role: agent.role, goal: agent.goal, backstory: agent.backstory };
  if (agent.llm !== undefined) {
    const llm = w.llm(agent.llm, `${path}.llm`, `${w.agentMethods.get(agent.id)}_llm`);
    if (llm !== undefined) out.llm = llm.yaml;
  }
  out.allow_delegation = agent.allowDelegation;
  out.max_iter = agent.maxIter;
  if (agent.maxRpm !== undefined) out.max_rpm = agent.maxRpm;
  if (agent.maxExecutionTimeMs !== undefined) out.max_execution_time = agent.maxExecutionTimeMs / 1000;
  out.respect_context_window = agent.respectContextWindow;
  out.cache = agent.cache;
  if (agent.memory !== undefined) out.memory = agent.memory;
  if (agent.skills?.length) w.skip(`${path}.skills`, `${agent.skills.length} skill(s)`, 'CrewAI skills are configured in Python; add them to the agent by hand');
  w.toolsFor(agent.tools, `${path}.tools`);
  w.unknownFields(agent, AGENT_FIELDS, path);
  return out;
}

/** A task's entry of tasks.yaml. */
export function taskYaml(w: CrewYamlWriter, task: Task, i: number): Record<string, unknown> {
  const path = `tasks.${i}`;
  const out: Record<string, unknown> = {};
  if (task.name !== undefined) out.name = task.name;
  out.description = task.description;
  out.expected_output = task.expectedOutput;
  if (task.agentId !== undefined) out.agent = w.agentMethods.get(task.agentId);
  if (task.context === 'none') out.context = [];
  else if (task.context !== undefined) out.context = task.context.map((id) => w.taskMethods.get(id) ?? id);
  out.async_execution = task.async;
  out.human_input = task.humanInput;
  if (task.outputFile !== undefined) out.output_file = task.outputFile;
  if (task.output?.format === 'markdown') out.markdown = true;
  if (task.output?.format === 'json') {
    const model = task.output.schema ? pydanticFromSchema(outputClassName(task.id), task.output.schema) : undefined;
    if (model) w.models.push(model);
    else w.skip(`${path}.output`, task.output.schema ? 'JSON output schema' : 'JSON output', task.output.schema ? 'the schema is richer than a plain pydantic model this exporter writes (str/int/float/bool/list fields); write the output class by hand' : 'CrewAI needs a pydantic class for JSON output; add output_json by hand');
  }
  const criteria: string[] = [];
  task.guardrails.forEach((g, j) => {
    if (g.type === 'llm') {
      criteria.push(g.criterion);
      if (g.llm !== undefined) w.skip(`${path}.guardrails.${j}.llm`, JSON.stringify(g.llm), 'CrewAI checks guardrail text with the agent\'s model');
    } else {
      w.skip(`${path}.guardrails.${j}`, `guardrail (${g.type}) ${JSON.stringify(g)}`, 'CrewAI runs such checks as Python functions; only text (llm) guardrails are exported');
    }
  });
  if (criteria.length === 1) out.guardrail = criteria[0];
  else if (criteria.length > 1) out.guardrails = criteria;
  if (task.guardrails.length > 0 || task.guardrailMaxRetries !== 3) out.guardrail_max_retries = task.guardrailMaxRetries;
  if (task.condition !== undefined) w.skip(`${path}.condition`, JSON.stringify(task.condition), 'CrewAI conditional tasks take a Python function; add a ConditionalTask by hand');
  w.toolsFor(task.tools, `${path}.tools`);
  if (task.tests !== undefined) w.skip(`${path}.tests`, `${task.tests.checks.length} check(s)`, 'crew tests (crewdeck test) exist only in Crewdeck');
  w.unknownFields(task, TASK_FIELDS, path);
  return out;
}
