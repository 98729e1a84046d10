import type { Database, Statement } from 'better-sqlite3';
import type { EventPayloads, RuntimeEvent, StubReached } from '../../shared/events';
import { addStubReached } from '../../shared/stubsReached';
import type { LongTexts } from './longTexts';

type EventRow = [seq: number, type: string, ts: number, spanId: string, parentSpanId: string | null, payload: string];

/** The workspace database's `events`, for SqliteRunStore. */
export class EventTable {
  private readonly insertEvent: Statement<unknown[], void>;
  private readonly selectEvents: Statement<[string, number, number], EventRow>;
  private readonly selectStubEvents: Statement<[string], { payload: string }>;
  private readonly selectLastSeq: Statement<[string], { seq: number | null }>;

  constructor(
    db: Database,
    private readonly texts: LongTexts,
  ) {
    this.insertEvent = db.prepare(
      'INSERT INTO events (run_id, seq, type, ts, span_id, parent_span_id, payload) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    this.selectEvents = db
      .prepare<[string, number, number], EventRow>(
        'SELECT seq, type, ts, span_id, parent_span_id, payload FROM events WHERE run_id = ? AND seq > ? ORDER BY seq LIMIT ?',
      )
      .raw(true);
    this.selectStubEvents = db.prepare("SELECT payload FROM events WHERE run_id = ? AND type = 'flow.stub.reached' ORDER BY seq");
    this.selectLastSeq = db.prepare('SELECT MAX(seq) AS seq FROM events WHERE run_id = ?');
  }

  insert(event: RuntimeEvent): void {
    const { type, runId, seq, ts, spanId, parentSpanId, ...payload } = event;
    this.insertEvent.run(runId, seq, type, ts, spanId, parentSpanId ?? null, this.texts.packJson(payload));
  }

  list(runId: string, afterSeq: number, limit: number): RuntimeEvent[] {
    return this.selectEvents.all(runId, afterSeq, limit).map(([seq, type, ts, spanId, parentSpanId, payload]) => {
      // Same key order as the event log builds them: type, payload, envelope.
      const event = { type, ...(this.texts.parseJson(payload) as object), runId, seq, ts, spanId } as RuntimeEvent;
      if (parentSpanId !== null) event.parentSpanId = parentSpanId;
      return event;
    });
  }

  /** The stubs a flow run reached, from its `flow.stub.reached` events. */
  stubsReached(runId: string): StubReached[] {
    let stubs: StubReached[] = [];
    for (const { payload } of this.selectStubEvents.all(runId)) stubs = addStubReached(stubs, this.texts.parseJson(payload) as EventPayloads['flow.stub.reached']);
    return stubs;
  }

  lastSeq(runId: string): number {
    return this.selectLastSeq.get(runId)?.seq ?? 0;
  }
}
