import type { FlowBody } from '../../../shared/model/flow';
import { callModel } from '../../agent/modelCall';
import { RunMemory } from '../../memory/runMemory';
import type { MethodScope } from './types';

type FeedbackBody = Extract<FlowBody, { type: 'human_feedback' }>;

export const LESSON_RECALL_LIMIT = 5;

/** Where a review step's lessons live: one scope per flow and method, so reviews learn from their own history. */
export function lessonScope(scope: MethodScope): string {
  return `/flow/${scope.flow.id}/method/${scope.method.name}`;
}

/**
 * Before asking again: the lessons earlier feedback taught this review step are recalled and the
 * output is revised with them, so the person sees the improved version. Returns the output to show
 * and how many lessons were applied.
 */
export async function reviseWithLessons(body: FeedbackBody, scope: MethodScope, output: string): Promise<{ output: string; applied: number }> {
  const store = scope.deps.memory;
  if (!body.learn || !store || output.trim() === '') return { output, applied: 0 };
  const where = lessonScope(scope);
  // No similarity floor: lessons are about how to write, not what about; the scope already keeps them to this step.
  const matches = await store.recall({ query: output, scope: where, limit: LESSON_RECALL_LIMIT });
  scope.span.emit({
    type: 'memory.recall',
    taskId: scope.method.id,
    agentRole: scope.method.name,
    query: output,
    scope: where,
    records: matches.map((m) => ({ id: m.record.id, score: Number(m.score.toFixed(4)), content: m.record.content, reasons: m.reasons })),
  });
  if (matches.length === 0) return { output, applied: 0 };
  const model = scope.deps.modelsFor(scope.documentPath).resolve(body.llm);
  const response = await callModel(scope.ctx, scope.span, model, { purpose: 'feedback_lessons', methodId: scope.method.id }, {
    messages: [
      { role: 'system', content: 'You revise a draft so that it follows lessons a reviewer taught earlier. Keep everything the lessons do not ask to change.' },
      { role: 'user', content: `Lessons from earlier reviews:\n${matches.map((m) => `- ${m.record.content}`).join('\n')}\n\nDraft:\n${output}\n\nReply with the revised draft only.` },
    ],
  });
  const revised = response.content.trim();
  return revised ? { output: revised, applied: matches.length } : { output, applied: 0 };
}

/** After an answer: the feedback is distilled into lessons (memory extraction, dedupe and consolidation included). */
export async function learnFromFeedback(body: FeedbackBody, scope: MethodScope, feedback: string): Promise<void> {
  const store = scope.deps.memory;
  if (!body.learn || !store || feedback.trim() === '') return;
  const model = scope.deps.modelsFor(scope.documentPath).resolve(body.llm);
  const memory = new RunMemory(() => scope.ctx, store, lessonScope(scope), 'immediate', () => model, { extractedKind: 'lesson' });
  const staged = memory.stage(scope.span, {
    attempt: 1,
    extract: true,
    input: {
      taskId: scope.method.id,
      agentRole: scope.method.name,
      description: `A person reviewed this output and gave feedback. Extract the lessons that should shape future drafts.\n\nOutput reviewed:\n${scope.input ?? ''}`,
      expectedOutput: 'General, reusable lessons (not facts about this one draft)',
      output: feedback,
    },
  });
  await staged.accept(feedback);
}
