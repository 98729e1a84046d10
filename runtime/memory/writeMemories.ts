import type { ReadAs } from '../../shared/events';
import type { RunContext } from '../agent/runContext';
import type { Span } from '../events/span';
import type { ChatModel } from '../llm/chatModel';
import { planConsolidation, type ConsolidationPlan } from './consolidate';
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

/** A memory write in progress: where its decisions are said and counted. */
interface WriteRun {
  ctx: RunContext;
  span: Span;
  target: WriteTarget;
  counts: WriteCounts;
}

type Similar = Awaited<ReturnType<MemoryWriteStore['similar']>>;

/** One candidate being written: its vector and the similar records it is compared with. */
interface CandidateWrite {
  candidate: MemoryCandidate;
  vector: number[];
  similar: Similar;
  compared: { id: string; similarity: number }[];
}

/**
 * Writes new memories one by one (each sees the ones before it): near-duplicates are skipped,
 * similar records are consolidated by the memory model, the rest is inserted. Every decision is an
 * event on `span` with its reason.
 */
export async function writeMemories(ctx: RunContext, span: Span, target: WriteTarget, candidates: MemoryCandidate[]): Promise<WriteCounts> {
  const run: WriteRun = { ctx, span, target, counts: { inserted: 0, updated: 0, deleted: 0, skipped: 0, recordIds: [] } };
  const vectors = await target.store.embed(candidates.map((c) => c.content));
  for (const [i, candidate] of candidates.entries()) {
    // store.embed checked that it returned one vector per text.
    await writeCandidate(run, candidate, vectors[i]!);
  }
  return run.counts;
}

async function writeCandidate(run: WriteRun, candidate: MemoryCandidate, vector: number[]): Promise<void> {
  const { store, scope } = run.target;
  const similar = await store.similar(vector, { scope, minSimilarity: CONSOLIDATION_SIMILARITY, limit: MAX_SIMILAR_RECORDS });
  const write: CandidateWrite = { candidate, vector, similar, compared: similar.map((s) => ({ id: s.record.id, similarity: round(s.similarity) })) };
  const top = similar[0];
  if (top && top.similarity >= NEAR_DUPLICATE_SIMILARITY) {
    skipDuplicate(run, candidate, top);
    return;
  }
  const note = candidate.note ? `; ${candidate.note}` : '';
  if (!top) {
    await insert(run, write, `no similar memory in ${scope}${note}`, 'rule');
    return;
  }
  const plan = await planConsolidation(run.ctx, run.span, run.target.model, run.target, candidate.content, similar);
  await applyPlan(run, write, plan);
  if (plan.insert) await insert(run, write, plan.reason + note, plan.decidedBy, plan.readAs);
  else skipCovered(run, write, plan, top);
}

function skipDuplicate(run: WriteRun, candidate: MemoryCandidate, top: Similar[number]): void {
  run.counts.skipped += 1;
  run.span.emit({
    type: 'memory.write.skipped',
    taskId: run.target.taskId,
    content: candidate.content,
    duplicateOf: top.record.id,
    similarity: round(top.similarity),
    reason: `a near-duplicate exists (similarity ${top.similarity.toFixed(3)} ≥ ${NEAR_DUPLICATE_SIMILARITY})`,
  });
}

async function insert(run: WriteRun, write: CandidateWrite, reason: string, decidedBy: 'rule' | 'model' | 'fallback', readAs: ReadAs[] = []): Promise<void> {
  const { store, scope, taskId } = run.target;
  const { candidate } = write;
  // add returns one record per memory given.
  const record = (
    await store.add(
      [{ content: candidate.content, scope, categories: candidate.categories, importance: candidate.importance, source: candidate.source }],
      [write.vector],
    )
  )[0]!;
  run.counts.inserted += 1;
  run.counts.recordIds.push(record.id);
  run.span.emit({ type: 'memory.write.decision', taskId, action: 'insert', content: candidate.content, recordId: record.id, similar: write.compared, reason, decidedBy, ...(readAs.length ? { readAs } : {}) });
}

/** Updates and deletes the similar records as the memory model planned. */
async function applyPlan(run: WriteRun, write: CandidateWrite, plan: ConsolidationPlan): Promise<void> {
  const { store } = run.target;
  for (const action of plan.records) {
    if (action.action === 'update') {
      // `update` keeps source and privacy and pushes the earlier content onto the record's history.
      await store.update(action.id, { content: action.content, reason: action.reason });
      run.counts.updated += 1;
      run.counts.recordIds.push(action.id);
    } else if (action.action === 'delete') {
      await store.forget({ ids: [action.id] });
      run.counts.deleted += 1;
    }
    run.span.emit({
      type: 'memory.write.decision',
      taskId: run.target.taskId,
      action: action.action,
      content: action.content ?? write.similar.find((s) => s.record.id === action.id)!.record.content,
      recordId: action.id,
      similar: write.compared,
      reason: action.reason,
      decidedBy: plan.decidedBy,
      ...(plan.readAs.length ? { readAs: plan.readAs } : {}),
    });
  }
}

function skipCovered(run: WriteRun, write: CandidateWrite, plan: ConsolidationPlan, top: Similar[number]): void {
  run.counts.skipped += 1;
  const covering = plan.records.find((r) => r.action !== 'delete') ?? top;
  const coveringId = 'record' in covering ? covering.record.id : covering.id;
  run.span.emit({
    type: 'memory.write.skipped',
    taskId: run.target.taskId,
    content: write.candidate.content,
    duplicateOf: coveringId,
    similarity: write.compared.find((c) => c.id === coveringId)?.similarity ?? round(top.similarity),
    reason: `the memory model decided not to store it separately: ${plan.reason}`,
  });
}

function round(x: number): number {
  return Number(x.toFixed(4));
}
