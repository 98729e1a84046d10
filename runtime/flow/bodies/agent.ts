import { CrewDocumentSchema } from '../../../shared/model/crew';
import { crewContext, executeCrew, prepareCrew } from '../../crew/executeCrew';
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
    tasks: [{ id: scope.method.id, name: scope.method.name, description: prompt, expectedOutput: 'A complete answer to the request above.', agentId }],
  });
  const models = scope.deps.modelsFor(scope.documentPath);
  const deps = { ...scope.deps, models };
  const crew = prepareCrew(doc, {}, deps, `${scope.method.name}.agent`);
  const ctx = crewContext(crew, deps, { runId: scope.ctx.runId, signal: scope.ctx.signal, meter: scope.ctx.meter, root: scope.span, newId: scope.ctx.newId });
  const result = await executeCrew(ctx, scope.span, crew, { models, abort: () => {} });
  return { kind: 'done', output: result.raw };
};
