import { callModel } from '../../agent/modelCall';
import { readJsonMatching } from '../../reading/jsonValue';
import { renderTemplate } from '../template';
import type { BodyRunner } from './types';

/** One model call with a prompt from a template; with `outputSchema` the reply must be JSON matching it. */
export const runLlm: BodyRunner<'llm'> = async (body, scope) => {
  const prompt = renderTemplate(body.prompt, scope, `${scope.method.name}.prompt`);
  const model = scope.deps.modelsFor(scope.documentPath).resolve(body.llm);
  const response = await callModel(scope.ctx, scope.span, model, { purpose: 'flow_llm', methodId: scope.method.id }, {
    messages: [{ role: 'user', content: body.outputSchema ? `${prompt}\n\nReply with JSON only, matching this JSON Schema:\n${JSON.stringify(body.outputSchema)}` : prompt }],
    responseFormat: body.outputSchema ? { type: 'json_schema', name: scope.method.name, schema: body.outputSchema } : undefined,
  });
  if (!body.outputSchema) return { kind: 'done', output: response.content };
  const checked = readJsonMatching(response.content, body.outputSchema);
  if (!checked.ok) throw new Error(`${scope.method.name}: the model's reply does not match the output schema: ${checked.reason}`);
  return { kind: 'done', output: response.content, json: checked.value };
};
