import type { EventOf, RuntimeEvent } from '../../../../shared/events';
import type { TraceSpan } from '../../../stores/runView';

/** The first event of a type in a span. */
export function eventOf<K extends RuntimeEvent['type']>(span: TraceSpan, type: K): EventOf<K> | undefined {
  return span.events.find((e): e is EventOf<K> => e.type === type);
}

/** Every event of a type in a span, in order. */
export function eventsOf<K extends RuntimeEvent['type']>(span: TraceSpan, type: K): EventOf<K>[] {
  return span.events.filter((e): e is EventOf<K> => e.type === type);
}
