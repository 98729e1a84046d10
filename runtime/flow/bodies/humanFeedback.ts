import type { FlowBody } from '../../../shared/model/flow';
import { callModel } from '../../agent/modelCall';
import { errorMessage } from '../../errors';
import { readOutcome } from '../../reading/outcome';
import { renderTemplate } from '../template';
import { learnFromFeedback, reviseWithLessons } from './feedbackLessons';
import type { BodyOutcome, BodyRunner, MethodScope } from './types';

type FeedbackBody = Extract<FlowBody, { type: 'human_feedback' }>;

/** A feedback router's outcomes are its routes. */
export function feedbackOutcomes(body: FeedbackBody, routes: string[] | undefined): string[] | undefined {
  return body.outcomes ?? routes;
}

/**
 * Asks: the flow pauses with the message and the output under review (the triggering output — with
 * `learn`, first revised with the lessons of earlier feedback).
 */
export const askForFeedback: BodyRunner<'human_feedback'> = async (body, scope) => {
  const outcomes = feedbackOutcomes(body, scope.method.routes);
  const message = renderTemplate(body.message, scope, `${scope.method.name}.message`);
  const revised = await reviseWithLessons(body, scope, scope.input ?? '');
  return {
    kind: 'pause',
    ask: {
      message: revised.applied > 0 ? `${message}\n(Revised with ${revised.applied} lesson${revised.applied === 1 ? '' : 's'} from earlier feedback.)` : message,
      output: revised.output,
      ...(outcomes ? { outcomes } : {}),
      ...(body.defaultOutcome ? { defaultOutcome: body.defaultOutcome } : {}),
    },
  };
};

/**
 * The answer came. The method's output is what was reviewed (so the next step works on it); the
 * feedback goes to `state.<method>_feedback`. With outcomes, the feedback is sorted into one — empty
 * feedback takes the default, a reply that names an outcome takes it, anything else is classified by
 * the model (its reply read by reading/outcome: a bare name, `Outcome: X`, JSON…; ambiguous or none → the
 * default, with the reason and the raw reply on `flow.route`).
 */
export async function answerFeedback(
  body: FeedbackBody,
  scope: MethodScope,
  feedback: string,
  reviewed: string,
): Promise<Extract<BodyOutcome, { kind: 'done' }>> {
  await learnFromFeedback(body, scope, feedback);
  const outcomes = feedbackOutcomes(body, scope.method.routes);
  const text = feedback.trim();
  const set = { [`${scope.method.name}_feedback`]: text };
  if (!outcomes) return { kind: 'done', output: reviewed, set };
  const fallback = body.defaultOutcome ?? outcomes[0];
  if (text === '') return { kind: 'done', output: reviewed, route: fallback, routeReason: `no feedback was given: the default outcome "${fallback}"`, set };
  const named = outcomes.find((o) => o.toLowerCase() === text.toLowerCase());
  if (named) return { kind: 'done', output: reviewed, route: named, routeReason: `the feedback names the outcome "${named}"`, set };

  const model = scope.deps.modelsFor(scope.documentPath).resolve(body.llm);
  let reply: string;
  try {
    const response = await callModel(scope.ctx, scope.span, model, { purpose: 'feedback_outcome', methodId: scope.method.id }, {
      messages: [
        { role: 'system', content: 'You sort a reviewer\'s feedback into exactly one of the given outcomes.' },
        {
          role: 'user',
          content:
            `What was reviewed:\n${scope.input ?? ''}\n\nThe reviewer was asked: ${renderTemplate(body.message, scope, `${scope.method.name}.message`)}\n\nFeedback:\n${text}\n\n` +
            `Outcomes: ${outcomes.join(', ')}\nReply with JSON only: {"outcome": "<one of the outcomes>", "reason": "<why>"}`,
        },
      ],
      responseFormat: { type: 'json_object' },
    });
    reply = response.content;
  } catch (error) {
    if (scope.ctx.signal.aborted) throw error;
    return { kind: 'done', output: reviewed, route: fallback, routeReason: `the feedback could not be classified (${errorMessage(error)}): the default outcome "${fallback}"`, set };
  }
  const read = readOutcome(reply, outcomes);
  if (!read.ok) return { kind: 'done', output: reviewed, route: fallback, routeReason: `${read.problem}: the default outcome "${fallback}"`, routeReply: reply, set };
  return {
    kind: 'done',
    output: reviewed,
    route: read.outcome,
    routeReason: `classified from the feedback${read.reason ? `: ${read.reason}` : ''}`,
    routeReply: reply,
    ...(read.readAs.length ? { routeReadAs: read.readAs } : {}),
    set,
  };
}
