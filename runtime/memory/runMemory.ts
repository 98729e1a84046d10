import type { MemoryCommitPolicy, ReadAs } from '../../shared/events';
import type { RunContext } from '../agent/runContext';
import { errorMessage } from '../errors';
import type { Span } from '../events/span';
import type { ChatModel } from '../llm/chatModel';
import { extractMemories } from './extractMemories';
import { TASK_RECALL_LIMIT } from './recallForTask';
import type { ExtractionInput, MemoryRecall, RunMemoryAccess, StagedAttempt } from './types';
import { writeMemories, type MemoryCandidate, type MemoryWriteStore } from './writeMemories';

export type RunMemoryStore = MemoryRecall & MemoryWriteStore;

/** A memory saved with `save_memory` during an attempt, waiting for the attempt's verdict. */
interface SavedMemory {
  content: string;
  categories: string[];
  importance: number;
  agentRole: string;
}

export const SEARCH_LIMIT_PER_QUERY = 20;

/**
 * One run's memory: the store and scope, the commit policy, the writes in flight (recall waits for
 * them) and what `save_memory` staged per task. Memories of an attempt are staged and reach the store
 * only when the attempt is accepted (`after-guardrail`), or at once (`immediate`, CrewAI's way).
 */
export class RunMemory implements RunMemoryAccess {
  private readonly pending = new Set<Promise<unknown>>();
  private readonly saved = new Map<string, SavedMemory[]>();

  constructor(
    private readonly ctx: () => RunContext,
    readonly store: RunMemoryStore,
    readonly scope: string,
    readonly policy: MemoryCommitPolicy,
    /** The memory model for an agent's memories: the crew's `memory.llm`, else the agent's own model. */
    private readonly modelFor: (agentRole: string) => ChatModel,
    options: {
      /** What extracted memories are: facts from tasks (default), or lessons from a person's feedback. */
      extractedKind?: 'task' | 'lesson';
      /** Memories recalled before a task (default 5; a standalone agent recalls 20). */
      recallLimit?: number;
    } = {},
  ) {
    this.extractedKind = options.extractedKind ?? 'task';
    this.recallLimit = options.recallLimit ?? TASK_RECALL_LIMIT;
  }
  private readonly extractedKind: 'task' | 'lesson';
  readonly recallLimit: number;

  /** Waits until no write is in flight (writes started meanwhile are waited for too). */
  async drain(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  async finish(): Promise<void> {
    await this.drain();
    await this.store.flush?.();
  }

  private track<T>(work: Promise<T>): Promise<T> {
    this.pending.add(work);
    const done = () => this.pending.delete(work);
    work.then(done, done);
    return work;
  }

  async search(queries: string[], limit: number): Promise<{ query: string; results: { id: string; content: string; score: number }[] }[]> {
    await this.drain();
    const capped = Math.min(SEARCH_LIMIT_PER_QUERY, Math.max(1, Math.floor(limit)));
    const out = [];
    for (const query of queries) {
      const matches = await this.store.recall({ query, scope: this.scope, limit: capped });
      out.push({ query, results: matches.map((m) => ({ id: m.record.id, content: m.record.content, score: Number(m.score.toFixed(4)) })) });
    }
    return out;
  }

  async save(
    memory: { content: string; categories?: string[]; importance?: number },
    call: { agentRole: string; taskId?: string; span?: Span },
  ): Promise<'staged' | 'committed'> {
    const item: SavedMemory = { content: memory.content.trim(), categories: memory.categories ?? [], importance: memory.importance ?? 0.5, agentRole: call.agentRole };
    if (this.policy === 'after-guardrail' && call.taskId !== undefined) {
      const list = this.saved.get(call.taskId) ?? [];
      list.push(item);
      this.saved.set(call.taskId, list);
      return 'staged';
    }
    const span = (call.span ?? this.ctx().root).child();
    await this.track(this.commit(span, { taskId: call.taskId ?? '', agentRole: call.agentRole, attempt: 1, saved: [item] }, undefined));
    return 'committed';
  }

  /**
   * Stages an attempt's output (to be extracted) and what was saved during it. `immediate` writes it
   * now, whatever the guardrails will say; otherwise `accept` writes it and `reject` discards it.
   */
  stage(span: Span, attempt: { input: ExtractionInput; attempt: number; extract: boolean }): StagedAttempt {
    const { input } = attempt;
    const saved = this.takeSaved(input.taskId);
    const extract = attempt.extract && input.output.trim() !== '';
    const ws = span.child();
    ws.emit({
      type: 'memory.write.staged',
      taskId: input.taskId,
      agentRole: input.agentRole,
      attempt: attempt.attempt,
      policy: this.policy,
      scope: this.scope,
      saved: saved.map((s) => s.content),
      extract,
    });
    const write = (output: string) =>
      this.track(
        this.commit(ws, { taskId: input.taskId, agentRole: input.agentRole, attempt: attempt.attempt, saved }, extract ? { ...input, output } : undefined),
      );
    if (this.policy === 'immediate') {
      const written = write(input.output);
      return { accept: () => written, reject: () => written };
    }
    return {
      accept: write,
      reject: async (reason) => {
        ws.emit({ type: 'memory.write.discarded', taskId: input.taskId, attempt: attempt.attempt, reason, dropped: saved.length + (extract ? 1 : 0) });
      },
    };
  }

  /** Drops what `save_memory` staged for a task that failed before its output could be judged. */
  discardUnstaged(span: Span, taskId: string, agentRole: string, reason: string): void {
    const saved = this.takeSaved(taskId);
    if (saved.length === 0) return;
    const ws = span.child();
    ws.emit({ type: 'memory.write.staged', taskId, agentRole, attempt: 0, policy: this.policy, scope: this.scope, saved: saved.map((s) => s.content), extract: false });
    ws.emit({ type: 'memory.write.discarded', taskId, attempt: 0, reason, dropped: saved.length });
  }

  private takeSaved(taskId: string): SavedMemory[] {
    const saved = this.saved.get(taskId) ?? [];
    this.saved.delete(taskId);
    return saved;
  }

  /** Extracts (when asked), then writes; closes the write span with `committed` or `failed`. Never throws but for an abort. */
  private async commit(
    ws: Span,
    what: { taskId: string; agentRole: string; attempt: number; saved: SavedMemory[] },
    extraction: ExtractionInput | undefined,
  ): Promise<void> {
    const ctx = this.ctx();
    const { taskId, agentRole, attempt } = what;
    try {
      const base = { runId: ctx.runId, taskId: taskId || undefined };
      const candidates: MemoryCandidate[] = what.saved.map((s) => ({
        content: s.content,
        categories: s.categories,
        importance: s.importance,
        source: { ...base, kind: 'tool', agentRole: s.agentRole },
      }));
      const model = this.modelFor(agentRole);
      let readAs: ReadAs[] = [];
      if (extraction) {
        const extracted = await extractMemories(ctx, ws, model, extraction);
        if (extracted.ok) readAs = extracted.readAs;
        const note = extracted.ok ? undefined : `extraction failed (${extracted.error}), so the whole output is kept`;
        for (const m of extracted.memories) candidates.push({ ...m, source: { ...base, kind: this.extractedKind, agentRole }, note });
      }
      const counts = candidates.length === 0
        ? { inserted: 0, updated: 0, deleted: 0, skipped: 0, recordIds: [] }
        : await writeMemories(ctx, ws, { store: this.store, scope: this.scope, model, taskId, agentRole }, candidates);
      ws.emit({ type: 'memory.write.committed', taskId, attempt, ...counts, ...(readAs.length ? { readAs } : {}) });
    } catch (error) {
      ws.emit({ type: 'memory.write.failed', taskId, attempt, error: errorMessage(error) });
      if (ctx.signal.aborted) throw error;
    }
  }
}
