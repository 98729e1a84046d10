import type { EventOf } from '../../../../shared/events';
import type { RunView } from '../../../stores/runView';

export interface StateChange {
  field: string;
  /** Absent when the field was not set before (or the state before is unknown). */
  before?: unknown;
  after?: unknown;
  how: 'added' | 'changed' | 'removed';
}

/**
 * The flow state before a method completed: the state of the latest method that completed before it
 * (in event order). Undefined for the first method to complete.
 */
export function stateBefore(view: RunView, completed: EventOf<'flow.method.completed'>): Record<string, unknown> | undefined {
  let best: EventOf<'flow.method.completed'> | undefined;
  for (const span of view.spans.values()) {
    if (span.kind !== 'method') continue;
    for (const e of span.events) {
      if (e.type === 'flow.method.completed' && e.seq < completed.seq && (!best || e.seq > best.seq)) best = e;
    }
  }
  return best?.state;
}

/** The fields a method changed, old and new values side by side. */
export function stateChanges(before: Record<string, unknown> | undefined, after: Record<string, unknown>, changed: readonly string[]): StateChange[] {
  return changed.map((field) => {
    const had = before !== undefined && Object.prototype.hasOwnProperty.call(before, field);
    const has = Object.prototype.hasOwnProperty.call(after, field);
    if (!has) return { field, before: had ? before![field] : undefined, how: 'removed' };
    if (!had) return { field, after: after[field], how: 'added' };
    return { field, before: before![field], after: after[field], how: 'changed' };
  });
}

/** A short one-line rendering of a state value. */
export function stateValue(value: unknown): string {
  if (value === undefined) return '—';
  const text = typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}
