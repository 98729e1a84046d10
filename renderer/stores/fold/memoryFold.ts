import type { EventOf } from '../../../shared/events';
import type { FamilyFold } from './eventFold';
import type { RunDraft } from './runDraft';
import type { SpanStatus } from '../runView';

/** Memory recall and writes (a span per write attempt), and knowledge retrieved for a task. */

function memoryCommitted(d: RunDraft, e: EventOf<'memory.write.committed'>): void {
  const parts = [
    e.inserted ? `${e.inserted} new` : '',
    e.updated ? `${e.updated} updated` : '',
    e.deleted ? `${e.deleted} deleted` : '',
    e.skipped ? `${e.skipped} duplicate${e.skipped === 1 ? '' : 's'} skipped` : '',
  ].filter(Boolean);
  memoryEnded(d, e, 'done', parts.length ? parts.join(' · ') : 'nothing to write');
}

/** Ends a memory-write span; its sublabel says how. A span missing its start (a partial log) is made from the end event. */
function memoryEnded(d: RunDraft, e: EventOf<'memory.write.committed' | 'memory.write.discarded' | 'memory.write.failed'>, status: SpanStatus, outcome: string): void {
  if (!d.spans.has(e.spanId)) d.open(e, 'memory', `memory write · attempt ${e.attempt}`);
  const span = d.close(e, status);
  if (span) span.sublabel = outcome;
}

/** Recalled memories and retrieved knowledge are shown on the task's span. */
const onItsSpan = (d: RunDraft, e: EventOf<'memory.recall' | 'knowledge.retrieved' | 'memory.write.skipped' | 'memory.write.decision'>) => void d.record(e);

export const MEMORY_FOLD = {
  'memory.recall': onItsSpan,
  'memory.write.staged': (d, e) => void d.open(e, 'memory', `memory write · attempt ${e.attempt}`, e.policy === 'immediate' ? 'immediate' : 'after guardrails'),
  'memory.write.skipped': onItsSpan,
  'memory.write.decision': onItsSpan,
  'memory.write.committed': memoryCommitted,
  'memory.write.discarded': (d, e) => memoryEnded(d, e, 'discarded', `discarded ${e.dropped} · ${e.reason}`),
  'memory.write.failed': (d, e) => memoryEnded(d, e, 'failed', e.error),
} satisfies FamilyFold<'memory'>;

export const KNOWLEDGE_FOLD = { 'knowledge.retrieved': onItsSpan } satisfies FamilyFold<'knowledge'>;
