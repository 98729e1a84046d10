import type { ReadAs } from '../../shared/events';
import type { ChatModel, ResponseFormat } from '../llm/chatModel';
import { callModel } from '../agent/modelCall';
import type { RunContext } from '../agent/runContext';
import type { Span } from '../events/span';
import { readJsonMatching } from '../reading/jsonValue';

export interface ConversionScope {
  ctx: RunContext;
  span: Span;
  taskId: string;
  /** Whose reply is converted: the call's tokens count for that agent and its task. */
  agentRole: string;
  /** The model that wrote the reply: the conversion asks the same one. */
  model: ChatModel;
}

export type Conversion = { ok: true; raw: string; value: unknown; readAs: ReadAs[] } | { ok: false; reason: string };

const INSTRUCTION = 'You turn text into JSON. Reply with the JSON value only: no prose, no explanation, no code fence.';

/**
 * CrewAI's conversion step: a reply to a JSON-output task that does not read as JSON matching the task's
 * schema gets ONE more call to the same model. That call is given only an instruction to return JSON, the
 * schema and the reply itself — never the task, its context or the agent's conversation — so it can only
 * restate what the reply says. It is an ordinary traced model call (`llm.started` with purpose
 * `conversion`), metered for the task and the agent and checked against the run's budget. Its answer is
 * read and checked like the reply was; a failure is the conversion's own reason.
 */
export async function convertReplyToJson(scope: ConversionScope, reply: string, schema: Record<string, unknown> | undefined): Promise<Conversion> {
  const response = await callModel(scope.ctx, scope.span, scope.model, { purpose: 'conversion', taskId: scope.taskId, agentRole: scope.agentRole }, {
    messages: [
      { role: 'system', content: conversionInstruction(schema) },
      { role: 'user', content: reply },
    ],
    responseFormat: responseFormatFor(schema),
  });
  const raw = response.content.trim();
  const read = readJsonMatching(raw, schema);
  return read.ok ? { ok: true, raw, value: read.value, readAs: [...read.readAs, 'converted-json'] } : { ok: false, reason: read.reason };
}

function conversionInstruction(schema: Record<string, unknown> | undefined): string {
  if (!schema) return `${INSTRUCTION}\nThe text you are given holds the data; write it as valid JSON.`;
  return `${INSTRUCTION}\nThe text you are given holds the data; write it as JSON that follows this JSON Schema exactly:\n${JSON.stringify(schema, null, 2)}`;
}

/** JSON mode when the answer must be an object (JSON mode cannot return an array or a bare value). */
function responseFormatFor(schema: Record<string, unknown> | undefined): ResponseFormat | undefined {
  return schema?.type === 'object' ? { type: 'json_object' } : undefined;
}
