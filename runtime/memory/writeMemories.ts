import type { ReadAs } from '../../shared/events';
import type { RunContext } from '../agent/runContext';
import type { Span } from '../events/span';
import type { ChatModel } from '../llm/chatModel';
import { planConsolidation } from './consolidate';
import type { MemoryStore } from './memoryStore';
import type { MemorySource } from './types';

/** At or above this cosine similarity a new memory is the same as an existing one and is not written. */
export const NEAR_DUPLICATE_SIMILARITY = 0.98;
/** At or above this similarity (and below the duplicate line) the memory model decides how they fit. */
export const CONSOLIDATION_SIMILARITY = 0.85;
/** At most this many similar records go to the memory model. */
export const MAX_SIMILAR_RECORDS = 5;

/** What a memory write needs of the store. */
export type MemoryWriteStore = Pick<MemoryStore, 'embed' | 'add' | 'similar' | 'update' | 'forget'>;

export interface MemoryCandidate {
  content: string;
  categories: string[];
  importance: number;
  source: MemorySource;
  /** Said with the insert decision (e.g. why the whole output was kept). */
  note?: string;
}

export interface WriteCounts {
  inserted: number;
  updated: number;
  deleted: number;
  skipped: number;
  recordIds: string[];
}

export interface WriteTarget {
  store: MemoryWriteStore;
  scope: string;
  model: ChatModel;
  taskId: string;
  agentRole: string;
}

/**
 * Writes new memories one by one (each sees the ones before it): near-duplicates are skipped,
 * similar records are consolidated by the memory model, the rest is inserted. Every decision is an
 * event on `span` with its reason.
 */
export async function writeMemories(ctx: RunContext, span: Span, target: WriteTarget, candidates: MemoryCandidate[]): Promise<WriteCounts> {
  const counts: WriteCounts = { inserted: 0, updated: 0, deleted: 0, skipped: 0, recordIds: [] };
  const { store, scope, taskId } = target;
  const vectors = await store.embed(candidates.map((c) => c.content));
  for (const [i, candidate] of candidates.entries()) {
    // store.embed checked that it returned one vector per text.
    const vector = vectors[i]!;
    const similar = await store.similar(vector, { scope, minSimilarity: CONSOLIDATION_SIMILARITY, limit: MAX_SIMILAR_RECORDS });
    const compared = similar.map((s) => ({ id: s.record.id, similarity: round(s.similarity) }));
    const top = similar[0];
    if (top && top.similarity >= NEAR_DUPLICATE_SIMILARITY) {
      counts.skipped += 1;
      span.emit({
        type: 'memory.write.skipped',
        taskId,
        content: candidate.content,
        duplicateOf: top.record.id,
        similarity: round(top.similarity),
        reason: `a near-duplicate exists (similarity ${top.similarity.toFixed(3)} ≥ ${NEAR_DUPLICATE_SIMILARITY})`,
      });
      continue;
    }
    const insert = async (reason: string, decidedBy: 'rule' | 'model' | 'fallback', readAs: ReadAs[] = []) => {
      // add returns one record per memory given.
      const record = (
        await store.add(
          [{ content: candidate.content, scope, categories: candidate.categories, importance: candidate.importance, source: candidate.source }],
          [vector],
        )
      )[0]!;
      counts.inserted += 1;
      counts.recordIds.push(record.id);
      span.emit({ type: 'memory.write.decision', taskId, action: 'insert', content: candidate.content, recordId: record.id, similar: compared, reason, decidedBy, ...(readAs.length ? { readAs } : {}) });
    };
    const note = candidate.note ? `; ${candidate.note}` : '';
    if (!top) {
      await insert(`no similar memory in ${scope}${note}`, 'rule');
      continue;
    }

    const plan = await planConsolidation(ctx, span, target.model, target, candidate.content, similar);
    for (const action of plan.records) {
      if (action.action === 'update') {
        // `update` keeps source and privacy and pushes the earlier content onto the record's history.
        await store.update(action.id, { content: action.content, reason: action.reason });
        counts.updated += 1;
        counts.recordIds.push(action.id);
      } else if (action.action === 'delete') {
        await store.forget({ ids: [action.id] });
        counts.deleted += 1;
      }
      span.emit({
        type: 'memory.write.decision',
        taskId,
        action: action.action,
        content: action.content ?? similar.find((s) => s.record.id === action.id)!.record.content,
        recordId: action.id,
        similar: compared,
        reason: action.reason,
        decidedBy: plan.decidedBy,
        ...(plan.readAs.length ? { readAs: plan.readAs } : {}),
      });
    }
    if (plan.insert) {
      await insert(plan.reason + note, plan.decidedBy, plan.readAs);
    } else {
      counts.skipped += 1;
      const covering = plan.records.find((r) => r.action !== 'delete') ?? top;
      const coveringId = 'record' in covering ? covering.record.id : covering.id;
      span.emit({
        type: 'memory.write.skipped',
        taskId,
        content: candidate.content,
        duplicateOf: coveringId,
        similarity: compared.find((c) => c.id === coveringId)?.similarity ?? round(top.similarity),
        reason: `the memory model decided not to store it separately: ${plan.reason}`,
      });
    }
  }
  return counts;
}

function round(x: number): number {
  return Number(x.toFixed(4));
}
