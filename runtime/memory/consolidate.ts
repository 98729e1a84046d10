import { z } from 'zod';
import { callModel } from '../agent/modelCall';
import type { RunContext } from '../agent/runContext';
import { errorMessage } from '../errors';
import type { Span } from '../events/span';
import type { ChatModel } from '../llm/chatModel';
import type { ReadAs } from '../../shared/events';
import { readJsonShaped } from '../reading/jsonValue';
import type { MemoryRecord } from './types';

/** What to do with one existing record that resembles the new memory. */
export interface RecordAction {
  id: string;
  action: 'keep' | 'update' | 'delete';
  /** The record's new content (update only). */
  content?: string;
  reason: string;
}

export interface ConsolidationPlan {
  /** Whether the new memory is written as a record of its own. */
  insert: boolean;
  reason: string;
  records: RecordAction[];
  decidedBy: 'model' | 'fallback';
  /** How the model's reply was read (reading/jsonValue), empty when it was plain JSON or not read. */
  readAs: ReadAs[];
}

const ReplySchema = z.object({
  insert: z.boolean(),
  reason: z.string().default(''),
  records: z
    .array(
      z.object({
        id: z.string(),
        action: z.enum(['keep', 'update', 'delete']),
        content: z.string().optional(),
        reason: z.string().default(''),
      }),
    )
    .default([]),
});

const SYSTEM = [
  'You keep an AI crew\'s long-term memory consistent.',
  'A new memory resembles existing records. Decide, for each existing record, whether to keep it as it is,',
  'update it (give its full new content, e.g. merged with the new memory or corrected by it) or delete it (outdated or contradicted);',
  'and whether the new memory should also be stored as a record of its own (insert), which is wrong when an update already covers it.',
].join(' ');

function describe(record: MemoryRecord, similarity: number): string {
  const when = new Date(record.updatedAt).toISOString().slice(0, 10);
  const categories = record.categories.length ? `; categories: ${record.categories.join(', ')}` : '';
  // The whole content: CrewAI shows the model 200 characters and decides on a fragment.
  return `- id: ${record.id} (similarity ${similarity.toFixed(2)}; updated ${when}; importance ${record.importance}${categories})\n  content: ${record.content}`;
}

/**
 * Asks the memory model how a new memory fits with similar records (SPEC §5). Whole records are
 * compared. A failed or unreadable answer inserts the new memory and leaves the records alone.
 */
export async function planConsolidation(
  ctx: RunContext,
  span: Span,
  model: ChatModel,
  who: { taskId: string; agentRole: string },
  content: string,
  similar: { record: MemoryRecord; similarity: number }[],
): Promise<ConsolidationPlan> {
  const fallback = (why: string): ConsolidationPlan => ({
    insert: true,
    reason: `${why}; the new memory is inserted and existing records are kept`,
    records: [],
    decidedBy: 'fallback',
    readAs: [],
  });
  let reply: string;
  try {
    const response = await callModel(ctx, span, model, { purpose: 'memory_consolidate', ...who }, {
      messages: [
        { role: 'system', content: SYSTEM },
        {
          role: 'user',
          content:
            `New memory:\n${content}\n\nExisting records:\n${similar.map((s) => describe(s.record, s.similarity)).join('\n')}\n\n` +
            'Reply with JSON only: {"insert": true|false, "reason": "<why>", "records": [{"id": "<id>", "action": "keep"|"update"|"delete", "content": "<new content, for update>", "reason": "<why>"}]}',
        },
      ],
      responseFormat: { type: 'json_object' },
    });
    reply = response.content;
  } catch (error) {
    if (ctx.signal.aborted) throw error;
    return fallback(`the memory model failed (${errorMessage(error)})`);
  }
  const read = readJsonShaped(reply, ReplySchema);
  if (!read.ok) return fallback(`the memory model's answer could not be read (${read.reason})`);
  const known = new Set(similar.map((s) => s.record.id));
  const records: RecordAction[] = [];
  for (const r of read.value.records) {
    if (!known.has(r.id) || records.some((x) => x.id === r.id)) continue;
    if (r.action === 'update' && !r.content?.trim()) continue; // an update without content changes nothing
    records.push({ id: r.id, action: r.action, content: r.action === 'update' ? r.content!.trim() : undefined, reason: r.reason || `the memory model chose ${r.action}` });
  }
  return { insert: read.value.insert, reason: read.value.reason || (read.value.insert ? 'new information' : 'already covered'), records, decidedBy: 'model', readAs: read.readAs };
}
