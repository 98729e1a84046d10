import type { Conversation, CrewDocument } from '../../shared/model/crew';
import type { TestResult } from '../../shared/training';
import { emptyUsage } from '../../shared/usage';
import { CHAT_TASK_ID, chatCrew, replayOf } from '../chat/chatCrew';
import { errorMessage } from '../errors';
import type { ChatModel } from '../llm/chatModel';
import { newRunId } from '../runId';
import type { Runtime, RunCrewOptions } from '../runtime';
import { askEvaluatorJson, type EvaluatorCall } from '../training/evaluatorJson';
import { TaskScoreSchema } from './taskScore';

const SYSTEM =
  'You score how well an agent\'s reply in a conversation matches the reply that was kept as the right one, from 1 (misses what it says) ' +
  'to 10 (says the same thing, in any words). Reply with JSON only: {"score": <1-10>, "reason": "<one sentence>"}';

/** The test-report row of a kept conversation: `conversation:<id>`, after the crew's tasks. */
export const conversationRowId = (conversation: Conversation) => `conversation:${conversation.id}`;

export interface ConversationTest {
  doc: CrewDocument;
  conversation: Conversation;
  iteration: number;
  /** The row's place in the report (after the tasks). */
  index: number;
  sessionId: string;
  runtime: Runtime;
  evaluator: (role: string) => ChatModel;
  evaluatorCall: Pick<EvaluatorCall, 'ctx' | 'parent'>;
  run: Pick<RunCrewOptions, 'documentPath' | 'signal' | 'onEvent'> & { inputs?: Record<string, string> };
  now: () => number;
}

/**
 * Replays a kept conversation (its last user turn, the turns before it as the history) as a chat reply
 * of its agent, and has the evaluator score the new reply against the kept one.
 */
export async function testConversation(t: ConversationTest): Promise<TestResult> {
  const { request, expected } = replayOf(t.conversation);
  const chat = chatCrew(t.doc, { ...request, inputs: t.run.inputs, sessionId: t.sessionId });
  const runId = newRunId(t.now());
  const started = t.now();
  const result = await t.runtime.runCrew(chat.doc, { ...t.run, runId, inputs: chat.inputs, purpose: chat.purpose });
  if (result.status === 'cancelled') throw new Error(`the replay of conversation "${t.conversation.name}" was cancelled`);
  const role = chat.purpose.kind === 'chat' ? chat.purpose.role : '';
  const base = {
    iteration: t.iteration,
    runId,
    taskId: conversationRowId(t.conversation),
    index: t.index,
    role,
    durationMs: Math.max(0, t.now() - started),
    tokenUsage: result.usageByTask[CHAT_TASK_ID] ?? emptyUsage(),
  };
  if (result.status !== 'completed') {
    return { ...base, status: 'failed', reason: result.error ? `the reply failed: ${result.error.message}` : `the reply ended ${result.status}`, checks: [] };
  }
  const scored = await askEvaluatorJson(
    {
      ...t.evaluatorCall,
      model: t.evaluator(role),
      subject: `conversation "${t.conversation.name}", iteration ${t.iteration}`,
      messages: [
        { role: 'system', content: SYSTEM },
        { role: 'user', content: `Conversation:\n${request.history.map((turn) => `${turn.role === 'user' ? 'Person' : 'Agent'}: ${turn.text}`).concat(`Person: ${request.message}`).join('\n')}\n\nKept reply:\n${expected}\n\nReply to score:\n${result.output}` },
      ],
    },
    TaskScoreSchema,
  ).catch((error: unknown) => {
    if (t.run.signal?.aborted) throw error;
    return { failure: errorMessage(error) };
  });
  return {
    ...base,
    status: 'completed',
    ...('value' in scored ? { score: scored.value.score, reason: scored.value.reason } : { reason: `the evaluator could not score it: ${scored.failure}` }),
    checks: [],
  };
}
