import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RuntimeEvent } from '../../shared/events';
import { createHostService } from '../../runtime/host/createHostService';
import { RunEventLog } from '../../runtime/events/span';
import { SqliteRunStore } from '../../runtime/store/sqliteRunStore';
import { emitSampleRun, sampleRun } from '../store/sampleRun';

let dir: string | undefined;
afterEach(() => {
  vi.restoreAllMocks();
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('trace load through the host API', () => {
  it("reads the run's row (and its document) once, not once per page of events", async () => {
    dir = mkdtempSync(join(tmpdir(), 'crewdeck-traceload-'));
    const store = SqliteRunStore.open(dir);
    store.createRun({ ...sampleRun('run_t'), document: { kind: 'crew', version: 1, id: 'big', tasks: Array.from({ length: 2000 }, (_, i) => ({ id: `t${i}` })) } });
    const log = new RunEventLog('run_t', () => 1);
    log.listen((e) => store.appendEvent(e));
    const emitted = emitSampleRun(log, 100);
    store.close();

    const getRun = vi.spyOn(SqliteRunStore.prototype, 'getRun');
    const host = createHostService({ workspace: dir, transport: 'websocket', env: {} });
    try {
      const events: RuntimeEvent[] = [];
      let after = 0;
      let pages = 0;
      for (;;) {
        const r = await host.handle('runs.events', { runId: 'run_t', afterSeq: after, limit: 50 });
        if (!r.ok) throw new Error(r.error.message);
        const page = r.response as { events: RuntimeEvent[]; lastSeq: number; more: boolean };
        events.push(...page.events);
        pages += 1;
        after = page.lastSeq;
        if (!page.more) break;
      }
      expect(events.map((e) => e.seq)).toEqual(emitted.map((e) => e.seq));
      expect(pages).toBeGreaterThan(5);
      expect(getRun).toHaveBeenCalledTimes(1);
      // An unknown run is still refused.
      const missing = await host.handle('runs.events', { runId: 'run_nope', afterSeq: 0, limit: 50 });
      expect(missing).toMatchObject({ ok: false, error: { code: 'not_found' } });
    } finally {
      await host.close();
    }
  });
});
