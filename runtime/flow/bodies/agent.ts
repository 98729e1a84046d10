import { CrewDocumentSchema } from '../../../shared/model/crew';
import { crewContext, executeCrew, prepareCrew } from '../../crew/executeCrew';
import { AGENT_RECALL_LIMIT } from '../../memory/recallForTask';
import { renderTemplate } from '../template';
import type { BodyRunner } from './types';

/**
 * A standalone agent on a prompt: run as a one-task crew of that agent, so tools, skills, knowledge
 * and the policy gate work exactly as in crews; the task is named after the method.
 */
export const runAgentBody: BodyRunner<'agent'> = async (body, scope) => {
  const prompt = renderTemplate(body.prompt, scope, `${scope.method.name}.prompt`);
  const agentId = body.agent.id ?? 'agent';
  const doc = CrewDocumentSchema.parse({
    kind: 'crew',
    version: 1,
    id: `${scope.flow.id}-${scope.method.id}`,
    name: scope.method.name,
    agents: [{ ...body.agent, id: agentId }],
    // An agent step remembers only when it asks to, in a scope of its own.
    ...(body.agent.memory ? { memory: { enabled: true, scope: `/flow/${scope.flow.id}/agent/${body.agent.role}` } } : {}),
    tasks: [{ id: scope.method.id, name: scope.method.name, description: prompt, expectedOutput: 'A complete answer to the request above.', agentId }],
  });
  const models = scope.deps.modelsFor(scope.documentPath);
  const deps = { ...scope.deps, models };
  const crew = prepareCrew(doc, {}, deps, `${scope.method.name}.agent`);
  const run = { runId: scope.ctx.runId, signal: scope.ctx.signal, meter: scope.ctx.meter, root: scope.span, newId: scope.ctx.newId, gate: scope.ctx.gate, budget: scope.ctx.budget };
  const ctx = crewContext(crew, deps, run, { recallLimit: AGENT_RECALL_LIMIT });
  const result = await executeCrew(ctx, scope.span, crew, { models, abort: () => {} });
  return { kind: 'done', output: result.raw };
};
