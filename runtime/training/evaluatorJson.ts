import type { z } from 'zod';
import type { ChatMessageRecord } from '../../shared/events';
import { addUsage, emptyUsage, type TokenUsage } from '../../shared/usage';
import { callModel } from '../agent/modelCall';
import type { RunContext } from '../agent/runContext';
import type { Span } from '../events/span';
import type { ChatModel } from '../llm/chatModel';
import { readJsonShaped } from '../reading/jsonValue';
import { EvaluatorReplyInvalid } from './trainingErrors';

export interface EvaluatorCall {
  /** The session's evaluation run: the calls are traced (`llm.*`), metered and stoppable like any run's. */
  ctx: RunContext;
  parent: Span;
  model: ChatModel;
  messages: ChatMessageRecord[];
  /** What is evaluated, for the error message. */
  subject: string;
  /** The role whose work is evaluated (shown with the model call). */
  agentRole?: string;
}

type Parsed<T> = { ok: true; value: T } | { ok: false; problem: string };

/**
 * Asks an evaluator model for a JSON object matching `schema`. A reply that is not valid JSON or does
 * not match gets exactly one repair attempt (the problem is sent back); a second bad reply throws
 * EvaluatorReplyInvalid. There is no fallback value.
 */
export async function askEvaluatorJson<T>(call: EvaluatorCall, schema: z.ZodType<T>): Promise<{ value: T; usage: TokenUsage; repaired: boolean }> {
  let usage = emptyUsage();
  const ask = async (messages: ChatMessageRecord[]) => {
    const response = await callModel(call.ctx, call.parent, call.model, { purpose: 'evaluation', agentRole: call.agentRole }, { messages, responseFormat: { type: 'json_object' } });
    usage = addUsage(usage, response.usage);
    return response.content;
  };
  const first = await ask(call.messages);
  const parsedFirst = parseReply(first, schema);
  if (parsedFirst.ok) return { value: parsedFirst.value, usage, repaired: false };

  const second = await ask([
    ...call.messages,
    { role: 'assistant', content: first },
    {
      role: 'user',
      content: `Your reply could not be used: ${parsedFirst.problem}\nReply again with only the corrected JSON object, nothing else.`,
    },
  ]);
  const parsedSecond = parseReply(second, schema);
  if (parsedSecond.ok) return { value: parsedSecond.value, usage, repaired: true };
  throw new EvaluatorReplyInvalid(call.subject, parsedSecond.problem, second);
}

function parseReply<T>(reply: string, schema: z.ZodType<T>): Parsed<T> {
  const read = readJsonShaped(reply, schema);
  if (read.ok) return { ok: true, value: read.value };
  return { ok: false, problem: read.reason.replace(/^output must be valid JSON/, 'it is not valid JSON').replace(/^the JSON does not match/, 'it does not match') };
}
