import { randomBytes } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { isLiveOnly } from '../../shared/events';
import { workspaceDatabasePath } from '../../runtime/store/database';
import { SqliteRunStore } from '../../runtime/store/sqliteRunStore';
import { crew, ofType, runCrew, tempWorkspace } from '../support/crewHarness';
import { startScriptedServer, type ScriptedServer } from '../support/scriptedServer';

/**
 * A long model reply is stored once: not as stream deltas beside the final text, and not once per
 * event, task output and run output that carries it. Measured on the real SQLite file, WAL included.
 */

const REPLY_BYTES = 5 * 1024 * 1024;
let server: ScriptedServer;

beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(() => server.close());

function dbBytes(workspace: string): number {
  const file = workspaceDatabasePath(workspace);
  return [file, `${file}-wal`].reduce((sum, f) => sum + (existsSync(f) ? statSync(f).size : 0), 0);
}

it('a streamed 5 MB reply grows crewdeck.db (with its WAL) by at most 10 MB, and reads back whole', async () => {
  // Random text: nothing in SQLite or here compresses it.
  const reply = randomBytes(REPLY_BYTES).toString('base64').slice(0, REPLY_BYTES);
  server.enqueue({ content: reply });
  const workspace = tempWorkspace('crewdeck-reply-size-');
  try {
    const before = dbBytes(workspace.dir);
    const doc = crew({
      agents: [{ id: 'writer', role: 'Writer', goal: 'Write at length', llm: { provider: 'openai', model: 'scripted-model', stream: true } }],
      tasks: [{ id: 'write', description: 'Write a long text', expectedOutput: 'Text', agentId: 'writer' }],
    });
    const { result, events } = await runCrew(doc, { workspace, env: { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: server.baseUrl } });
    expect(result.status, JSON.stringify(result.error)).toBe('completed');
    expect(result.output).toBe(reply);
    // The reply was really streamed, and listeners saw its deltas live.
    const chunks = ofType(events, 'llm.chunk');
    expect(chunks.length).toBeGreaterThanOrEqual(2);
    expect(chunks.map((c) => c.delta).join('')).toBe(reply);

    const grown = dbBytes(workspace.dir) - before;
    workspace.store.flush();
    const grownAfterFlush = dbBytes(workspace.dir) - before;
    console.log(`reply ${REPLY_BYTES} bytes; crewdeck.db + WAL grew by ${grown} bytes (${grownAfterFlush} after flush)`);
    expect(Math.max(grown, grownAfterFlush)).toBeLessThanOrEqual(2 * REPLY_BYTES);

    // What is stored reads back whole, from a fresh connection.
    const reopened = SqliteRunStore.open(workspace.dir);
    try {
      const stored = reopened.events(result.runId);
      expect(ofType(stored, 'llm.chunk')).toEqual([]);
      // Deltas take no seq of their own: the stored seqs are 1..n, and are the live events' seqs.
      expect(stored.map((e) => e.seq)).toEqual(stored.map((_, i) => i + 1));
      expect(events.filter((e) => !isLiveOnly(e)).map((e) => e.seq)).toEqual(stored.map((e) => e.seq));
      expect(ofType(stored, 'llm.completed')[0]!.content).toBe(reply);
      expect(ofType(stored, 'task.completed')[0]).toMatchObject({ taskId: 'write' });
      expect(reopened.taskOutputs(result.runId)[0]!.raw).toBe(reply);
      expect(reopened.getRun(result.runId)?.output).toBe(reply);
    } finally {
      reopened.close();
    }
  } finally {
    workspace.remove();
  }
}, 60_000);
