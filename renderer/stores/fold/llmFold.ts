import { addUsage } from '../../../shared/usage';
import type { FamilyFold } from './eventFold';

/** Model calls: a span each, a streamed reply while it comes, their tokens counted up the span tree and in the run's total. */
export const LLM_FOLD = {
  'llm.started': (d, e) => void d.open(e, 'llm', e.model, e.purpose === 'agent' ? undefined : e.purpose),
  'llm.chunk': (d, e) => {
    const span = d.mutable(e.spanId);
    if (span) span.streamed = (span.streamed ?? '') + e.delta;
  },
  'llm.completed': (d, e) => {
    d.close(e, 'done');
    d.addTokens(e.spanId, e.usage.totalTokens);
    d.v.tokenUsage = addUsage(d.v.tokenUsage, e.usage);
  },
  'llm.failed': (d, e) => {
    if (e.willRetry) d.record(e);
    else d.close(e, 'failed');
  },
} satisfies FamilyFold<'llm'>;

export const EMBEDDING_FOLD = {
  // A one-event span: shown on the span it was made for (a task's, a method's), its tokens counted there and in the run's total.
  'embedding.completed': (d, e) => {
    if (e.parentSpanId !== undefined) {
      d.mutable(e.parentSpanId)?.events.push(e);
      d.addTokens(e.parentSpanId, e.usage.totalTokens);
    }
    d.v.tokenUsage = addUsage(d.v.tokenUsage, e.usage);
  },
} satisfies FamilyFold<'embedding'>;
