import { z } from 'zod';
import type { TrainingRecord } from '../../shared/training';
import type { TokenUsage } from '../../shared/usage';
import type { ChatModel } from '../llm/chatModel';
import { askEvaluatorJson, type EvaluatorCall } from './evaluatorJson';

/** What the evaluator must return for a role. */
export const TrainingEvaluationSchema = z.object({
  suggestions: z.array(z.string().trim().min(1, 'a suggestion must not be empty').max(2000)).min(1, 'give at least one suggestion').max(30),
  quality: z.number().min(0).max(10),
  summary: z.string().trim().min(1, 'must not be empty').max(5000),
});
export type TrainingEvaluation = z.infer<typeof TrainingEvaluationSchema>;

const SYSTEM = [
  'You evaluate how an AI agent did during training, where a human reviewed its answers.',
  'For each task you get the agent\'s first answer, the human\'s feedback and the agent\'s revised answer.',
  'Turn the feedback into short, concrete instructions the agent must follow in future tasks, so that',
  'its first answer already satisfies the reviewer. Keep the specific points the human made (names,',
  'formats, lengths, tone); compare the first and revised answers to see what the human wanted.',
  'Rate the quality of the revised answers from 0 (useless) to 10 (excellent) and summarise in one or two sentences.',
  'Reply with JSON only: {"suggestions": ["..."], "quality": <0-10>, "summary": "..."}',
].join(' ');

/** Asks the evaluator to turn a role's training records into suggestions (one repair attempt, then a typed error). */
export async function evaluateRole(
  run: Pick<EvaluatorCall, 'ctx' | 'parent'>,
  model: ChatModel,
  role: string,
  records: TrainingRecord[],
  current: { version: number; suggestions: string[] } | undefined,
): Promise<{ evaluation: TrainingEvaluation; usage: TokenUsage }> {
  const parts = [`Agent role: ${role}`, ''];
  records.forEach((r, i) => {
    parts.push(
      `## Record ${i + 1} (task "${r.taskId}", iteration ${r.iteration})`,
      `First answer:\n${r.initialOutput}`,
      `Human feedback:\n${r.feedback}`,
      `Revised answer:\n${r.improvedOutput}`,
      '',
    );
  });
  if (current) {
    parts.push(
      `The agent already follows these instructions (version ${current.version}); keep the ones that still hold and merge them with the new ones:`,
      ...current.suggestions.map((s) => `- ${s}`),
    );
  }
  const { value, usage } = await askEvaluatorJson(
    {
      ...run,
      model,
      subject: `role "${role}"`,
      agentRole: role,
      messages: [
        { role: 'system', content: SYSTEM },
        { role: 'user', content: parts.join('\n') },
      ],
    },
    TrainingEvaluationSchema,
  );
  return { evaluation: value, usage };
}
