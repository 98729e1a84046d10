import type { EventOf } from '../../../shared/events';
import type { FamilyFold } from './eventFold';
import type { RunDraft } from './runDraft';

/** Questions for a person: a waiting span, and the nodes that wait for its answer. */

function humanRequested(d: RunDraft, e: EventOf<'human.requested'>): void {
  const label = e.kind === 'tool_approval' ? `approve ${e.tool ?? 'tool'}` : e.kind === 'flow_feedback' ? 'feedback' : 'human review';
  const span = d.open(e, 'human', label, e.agentRole, 'waiting');
  d.v.book.human[e.requestId] = e.spanId;
  for (const node of d.waitingNodes(span)) {
    d.v.book.waiting[node] = (d.v.book.waiting[node] ?? 0) + 1;
    d.refreshNode(node);
  }
}

function humanAnswered(d: RunDraft, e: EventOf<'human.answered'>): void {
  // A resumed flow may answer from another process: find the request's span by its id.
  const spanId = d.spans.has(e.spanId) ? e.spanId : (d.v.book.human[e.requestId] ?? e.spanId);
  const open = d.v.book.open[spanId];
  const span = d.close(spanId === e.spanId ? e : { ...e, spanId }, 'done');
  if (span && open) d.humanClosed(span);
}

export const HUMAN_FOLD = {
  'human.requested': humanRequested,
  'human.answered': humanAnswered,
} satisfies FamilyFold<'human'>;
