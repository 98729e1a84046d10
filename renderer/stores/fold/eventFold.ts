import type { EventFamily, EventOf, EventTypeOf, RuntimeEventType } from '../../../shared/events';
import type { RunDraft } from './runDraft';

/** How one event type changes the run view being built. */
export type EventFold<K extends RuntimeEventType> = (d: RunDraft, e: EventOf<K>) => void;

/**
 * A family's folds, one per event type of the family in the catalog (shared/events/eventCatalog.ts):
 * `null` says, on purpose, that the event changes nothing in the run view. Written `satisfies
 * FamilyFold<'tool'>`, a fold missing for a new event is a type error.
 */
export type FamilyFold<F extends EventFamily> = { [K in EventTypeOf<F>]: EventFold<K & RuntimeEventType> | null };
