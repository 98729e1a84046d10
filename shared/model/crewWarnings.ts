import type { CrewDocument } from './crew';
import type { Problem } from './problems';
import { duplicateToolNameWarnings } from './toolWarnings';

/**
 * Things a crew may do (CrewAI allows them too) that are probably not meant: they are reported by
 * `crewdeck validate` and on import, and never make a document invalid.
 *   - two agents with the same role: delegation by role reaches the first of them only;
 *   - an empty expected output: the agent gets no description of the answer it should give;
 *   - two tools an agent or task would offer under the same name.
 */
export function crewWarnings(doc: CrewDocument): Problem[] {
  const warnings: Problem[] = [];
  const firstWithRole = new Map<string, string>();
  doc.agents.forEach((agent, i) => {
    const key = agent.role.trim().toLowerCase();
    const first = firstWithRole.get(key);
    if (first !== undefined) warnings.push({ path: `agents.${i}.role`, message: `duplicate role "${agent.role}" (also agent "${first}"): delegation to this role reaches "${first}" only` });
    else firstWithRole.set(key, agent.id);
    warnings.push(...duplicateToolNameWarnings(agent.tools, `agents.${i}.tools`));
  });
  doc.tasks.forEach((task, i) => {
    if (task.expectedOutput.trim() === '') warnings.push({ path: `tasks.${i}.expectedOutput`, message: 'empty expected output: the agent is not told what answer to give' });
    warnings.push(...duplicateToolNameWarnings(task.tools, `tasks.${i}.tools`));
  });
  return warnings;
}
