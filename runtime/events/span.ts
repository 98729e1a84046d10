import { isLiveOnly, type EventInput, type RuntimeEvent } from '../../shared/events';
import { redactKnownDeep } from '../redactSecrets';

export type EventListener = (event: RuntimeEvent) => void;

/**
 * Assigns the envelope (seq, ts, span ids) and hands every event to the listeners in order.
 * The store is one listener, so an event is persisted the moment it happens.
 */
export class RunEventLog {
  private seq = 0;
  private spanCounter = 0;
  private readonly listeners: EventListener[] = [];
  private readonly flushers: (() => void)[] = [];

  constructor(
    readonly runId: string,
    private readonly now: () => number = Date.now,
    /** Continuing a run (a resumed flow): its last seq, and a prefix that keeps new span ids apart from earlier ones. */
    resumeFrom?: { seq: number; spanPrefix: string },
  ) {
    this.seq = resumeFrom?.seq ?? 0;
    this.spanPrefix = resumeFrom?.spanPrefix ?? 's';
  }
  private readonly spanPrefix: string;

  /** `flush` (a store's): makes what the listener was given durable now; see `flush()`. */
  listen(listener: EventListener, flush?: () => void): () => void {
    this.listeners.push(listener);
    if (flush) this.flushers.push(flush);
    return () => {
      const i = this.listeners.indexOf(listener);
      if (i >= 0) this.listeners.splice(i, 1);
      const f = flush ? this.flushers.indexOf(flush) : -1;
      if (f >= 0) this.flushers.splice(f, 1);
    };
  }

  /**
   * Commits the events emitted so far before control goes to code that may hold the event loop (a
   * tool, a script): the store groups an event-loop turn's events into one commit at the turn's end,
   * and a tool that never lets the turn end, killed, would take them with it.
   */
  flush(): void {
    for (const flush of this.flushers) flush();
  }

  nextSpanId(): string {
    this.spanCounter += 1;
    return `${this.spanPrefix}${this.spanCounter}`;
  }

  get lastSeq(): number {
    return this.seq;
  }

  emit(input: EventInput, spanId: string, parentSpanId: string | undefined): RuntimeEvent {
    // A live-only event (a stream delta) follows the last stored event and shares its seq.
    if (!isLiveOnly(input)) this.seq += 1;
    // Secrets the runtime read (API keys, MCP values) leave no trace in any event, in any encoding.
    const event = { ...redactKnownDeep(input), runId: this.runId, seq: this.seq, ts: this.now(), spanId, parentSpanId } as RuntimeEvent;
    if (parentSpanId === undefined) delete (event as { parentSpanId?: string }).parentSpanId;
    for (const listener of this.listeners) listener(event);
    return event;
  }

  /** The run's root span. */
  root(): Span {
    return new Span(this, this.nextSpanId(), undefined);
  }
}

/** A node of the trace tree. Events emitted on a span carry its id; children nest under it. */
export class Span {
  constructor(
    readonly log: RunEventLog,
    readonly id: string,
    readonly parentId: string | undefined,
  ) {}

  emit(input: EventInput): RuntimeEvent {
    return this.log.emit(input, this.id, this.parentId);
  }

  child(): Span {
    return new Span(this.log, this.log.nextSpanId(), this.id);
  }

  get runId(): string {
    return this.log.runId;
  }
}
