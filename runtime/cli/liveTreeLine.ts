import type { EventFamily, EventOf, EventTypeOf, ReadAs, RuntimeEventType } from '../../shared/events';
import type { Style } from './style';

/** What a live-tree line may use besides its event: the style, and the tree's memory of the run so far. */
export interface LineContext {
  readonly s: Style;
  /** A dimmed duration. */
  took(ms: number): string;
  /** ": <error>", or '' when the same error was just shown where it happened. */
  reason(error: string): string;
  /** A short note when a lenient reading changed what the model literally wrote. */
  readNote(readAs: readonly ReadAs[] | undefined): string;
  /** The note for a finished tool call on how its call was read (then forgotten). */
  toolNote(spanId: string): string;
  /** How each running tool call was read from the model's reply, by span. */
  readonly toolReadAs: Map<string, ReadAs[]>;
  /** The crew's task count; undefined in a flow. */
  taskCount: number | undefined;
}

export type EventLine<K extends RuntimeEventType> = (e: EventOf<K>, c: LineContext) => string | undefined;

/** A family's live-tree lines, one per event type of the family in the catalog; `null`: no line. */
export type FamilyLines<F extends EventFamily> = { [K in EventTypeOf<F>]: EventLine<K & RuntimeEventType> | null };
