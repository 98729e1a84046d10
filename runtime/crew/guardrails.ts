import type { DeterministicCheck, Guardrail } from '../../shared/model/guardrail';
import type { ModelRef } from '../../shared/model/modelRef';
import { compileLinearRegex } from '../../shared/model/regex';
import type { Span } from '../events/span';
import type { ChatModel } from '../llm/chatModel';
import { callModel } from '../agent/modelCall';
import type { RunContext } from '../agent/runContext';
import { z } from 'zod';
import type { ReadAs } from '../../shared/events';
import { readJsonMatching, readJsonShaped } from '../reading/jsonValue';

/** `readAs`: how a judge model's verdict was read from its reply, when not literally. */
export type GuardrailVerdict = { pass: true; replacement?: string; readAs?: ReadAs[] } | { pass: false; reason: string; readAs?: ReadAs[] };

export interface GuardrailScope {
  ctx: RunContext;
  span: Span;
  taskId: string;
  /** Whose output is judged: the judge's tokens count for that agent. */
  agentRole: string;
  /** Resolves the judge model of an `llm` guardrail (its own `llm`, else the agent's). */
  judge: (ref: ModelRef | undefined) => ChatModel;
}

type Check<G extends Guardrail> = (guardrail: G, output: string, scope: GuardrailScope) => GuardrailVerdict | Promise<GuardrailVerdict>;

/**
 * One checker per guardrail kind. A failure message states the requirement in words, with the
 * pattern, text or limits, because it is all the agent sees when it retries.
 */
const checks: { [K in Guardrail['type']]: Check<Extract<Guardrail, { type: K }>> } = {
  regex: (g, output) =>
    compileLinearRegex(g.pattern, g.flags).test(output) ? { pass: true } : { pass: false, reason: `output must match /${g.pattern}/${g.flags ?? ''}` },
  length: (g, output) => {
    const n = output.length;
    if (g.min !== undefined && n < g.min) return { pass: false, reason: `output must be at least ${g.min} characters long (it has ${n})` };
    if (g.max !== undefined && n > g.max) return { pass: false, reason: `output must be at most ${g.max} characters long (it has ${n})` };
    return { pass: true };
  },
  contains: (g, output) => (output.includes(g.text) ? { pass: true } : { pass: false, reason: `output must contain "${g.text}"` }),
  not_contains: (g, output) => (output.includes(g.text) ? { pass: false, reason: `output must not contain "${g.text}"` } : { pass: true }),
  json_schema: (g, output) => {
    const result = readJsonMatching(output, g.schema);
    return result.ok ? { pass: true } : { pass: false, reason: result.reason };
  },
  llm: (g, output, scope) => judgeWithModel(g.criterion, output, scope.judge(g.llm), scope),
};

/** A guardrail that needs no model (a crew test's check): its verdict depends on the output alone. */
export function checkDeterministic(check: DeterministicCheck, output: string): GuardrailVerdict {
  const run = checks[check.type] as (guardrail: DeterministicCheck, output: string) => GuardrailVerdict;
  return run(check, output);
}

export function checkGuardrail(guardrail: Guardrail, output: string, scope: GuardrailScope): Promise<GuardrailVerdict> {
  const check = checks[guardrail.type] as Check<Guardrail>;
  return Promise.resolve(check(guardrail, output, scope));
}

const JudgeVerdict = z.object({ pass: z.boolean(), reason: z.string().optional().catch(undefined) });

async function judgeWithModel(criterion: string, output: string, model: ChatModel, scope: GuardrailScope): Promise<GuardrailVerdict> {
  const response = await callModel(scope.ctx, scope.span, model, { purpose: 'guardrail', taskId: scope.taskId, agentRole: scope.agentRole }, {
    messages: [
      {
        role: 'system',
        content:
          'You check whether an answer meets a criterion. Reply with JSON only: {"pass": true|false, "reason": "<one sentence>"}.',
      },
      { role: 'user', content: `Criterion: ${criterion}\n\nAnswer to check:\n${output}` },
    ],
    responseFormat: { type: 'json_object' },
  });
  const parsed = readJsonShaped(response.content, JudgeVerdict);
  if (!parsed.ok) {
    return { pass: false, reason: `the judge model's reply could not be read as {"pass", "reason"}: ${response.content.slice(0, 200)}` };
  }
  const { value: verdict, readAs } = parsed;
  const how = readAs.length ? { readAs } : {};
  const reason = verdict.reason ?? '';
  return verdict.pass ? { pass: true, ...how } : { pass: false, reason: `output must satisfy "${criterion}"${reason ? `: ${reason}` : ''}`, ...how };
}
