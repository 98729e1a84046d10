import type { RuntimeEvent } from '../../shared/events';
import { addUsage, emptyUsage, type TokenUsage } from '../../shared/usage';
import { openSpans, type OpenSpanStart } from '../run/openSpans';

/**
 * What a killed process left of a crew run: the spans it was in (its task, agent, model call…),
 * started and never ended, what its calls had cost, and when it stopped (its last stored event).
 */
export interface InterruptedCrew {
  open: OpenSpanStart[];
  usage: TokenUsage;
  endedAt: number;
}

/** Reads an interrupted crew run's stored events: what is still open and what it cost. */
export function interruptedCrew(events: readonly RuntimeEvent[], endedAt: number): InterruptedCrew {
  return { open: openSpans(events), usage: usageOfEvents(events), endedAt };
}

/** What a run's model calls cost so far, from its stored events (a killed process wrote no total). */
export function usageOfEvents(events: readonly RuntimeEvent[]): TokenUsage {
  let usage = emptyUsage();
  for (const e of events) if (e.type === 'llm.completed') usage = addUsage(usage, e.usage);
  return usage;
}
