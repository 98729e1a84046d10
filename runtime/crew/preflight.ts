import type { CrewDocument } from '../../shared/model/crew';
import { DocumentInvalid } from '../errors';
import type { ModelResolver } from '../llm/resolveModel';
import type { ToolUse } from '../tools/policyGate';
import type { ToolRegistry } from '../tools/registry';
import { schemaProblems } from '../document/schemaProblems';
import { resolveToolRefs } from './roster';

/**
 * Everything a run will need that can be checked before it opens: schemas compile, task-level tools
 * exist, and the judge and planner models resolve. A crew that fails here never spends a token.
 * Returns the tools of tasks that override their agent's.
 */
export function preflight(doc: CrewDocument, models: ModelResolver, registry: ToolRegistry, source: string): Map<string, ToolUse[]> {
  const problems = schemaProblems(doc);
  if (problems.length > 0) throw new DocumentInvalid(source, problems);
  const taskTools = new Map<string, ToolUse[]>();
  doc.tasks.forEach((task, i) => {
    if (task.tools) taskTools.set(task.id, resolveToolRefs(task.tools, registry, `tasks.${i}.tools`));
    for (const g of task.guardrails) if (g.type === 'llm') models.resolve(g.llm);
  });
  if (doc.planning?.enabled) models.resolve(doc.planning.llm);
  return taskTools;
}
