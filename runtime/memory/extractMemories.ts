import { z } from 'zod';
import { callModel } from '../agent/modelCall';
import type { RunContext } from '../agent/runContext';
import { errorMessage } from '../errors';
import type { Span } from '../events/span';
import type { ChatModel } from '../llm/chatModel';
import type { ReadAs } from '../../shared/events';
import { readJsonShaped } from '../reading/jsonValue';
import type { ExtractionInput } from './types';

/** One fact worth remembering, as the memory model wrote it. */
export interface ExtractedMemory {
  content: string;
  categories: string[];
  importance: number;
}

export type ExtractionResult =
  /** `readAs`: how the reply was read (reading/jsonValue), empty when it was plain JSON. */
  | { ok: true; memories: ExtractedMemory[]; readAs: ReadAs[] }
  /** The model failed or answered something unreadable: the whole output is kept as one memory. */
  | { ok: false; memories: ExtractedMemory[]; error: string };

const ReplySchema = z.object({
  memories: z.array(
    z.object({
      content: z.string().trim().min(1),
      categories: z.array(z.string()).optional(),
      importance: z.number().min(0).max(1).optional(),
    }),
  ),
});

const SYSTEM = [
  'You maintain the long-term memory of an AI agent crew.',
  'From a finished task, extract the facts, decisions, preferences and lessons that will help with later tasks.',
  'Each memory must be atomic (one fact), self-contained (understandable without the task) and specific (names, numbers, dates).',
  'Leave out chatter, formatting and anything only true for this one answer. Return an empty list when nothing is worth keeping.',
].join(' ');

/** Asks the memory model for atomic memories from one task's output (SPEC §5 encoding). */
export async function extractMemories(ctx: RunContext, span: Span, model: ChatModel, input: ExtractionInput): Promise<ExtractionResult> {
  const whole = (error: string): ExtractionResult => ({
    ok: false,
    error,
    memories: [{ content: input.output.trim(), categories: [], importance: 0.5 }],
  });
  let content: string;
  try {
    const response = await callModel(ctx, span, model, { purpose: 'memory_extract', taskId: input.taskId, agentRole: input.agentRole }, {
      messages: [
        { role: 'system', content: SYSTEM },
        {
          role: 'user',
          content:
            `Agent role: ${input.agentRole}\nTask: ${input.description}\nExpected output: ${input.expectedOutput}\n\nOutput:\n${input.output}\n\n` +
            'Reply with JSON only: {"memories": [{"content": "<one fact>", "categories": ["<topic>"], "importance": <0..1>}]}',
        },
      ],
      responseFormat: { type: 'json_object' },
    });
    content = response.content;
  } catch (error) {
    if (ctx.signal.aborted) throw error;
    return whole(`the memory model failed: ${errorMessage(error)}`);
  }
  const parsed = readJsonShaped(content, ReplySchema);
  if (!parsed.ok) return whole(`the memory model did not answer with {"memories": [...]}: ${parsed.reason}`);
  return {
    ok: true,
    memories: parsed.value.memories.map((m) => ({ content: m.content, categories: m.categories ?? [], importance: m.importance ?? 0.5 })),
    readAs: parsed.readAs,
  };
}
