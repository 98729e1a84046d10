import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { RunEventLog } from '../../runtime/events/span';
import { redactKnown, redactKnownDeep, redactSecrets, registerSecret } from '../../runtime/redactSecrets';
import Database from 'better-sqlite3';
import { workspaceDatabasePath } from '../../runtime/store/database';
import { emptyUsage } from '../../shared/usage';
import { crew, runCrew, scripted, tempWorkspace } from '../support/crewHarness';

const b64 = (text: string) => Buffer.from(text).toString('base64');
const b64url = (text: string) => Buffer.from(text).toString('base64url');

describe('redactSecrets', () => {
  const key = `sk-canary-${randomBytes(12).toString('hex')}`;
  const odd = `k/ey+with spaces&=${randomBytes(6).toString('hex')}`;

  it('cuts a secret as itself, inside Bearer, URL-encoded, and base64 / base64url encoded at any alignment', () => {
    const texts = [
      `Invalid key: ${key}.`,
      `header was "Bearer ${key}"`,
      `echo: ${b64(key)}`,
      `echo: ${b64(`Bearer ${key}`)}`,
      `echo: ${b64(`xBearer ${key}`)} and ${b64(`xyBearer ${key}`)}`,
      `echo: ${b64url(`Bearer ${key}`)}`,
      `body ${b64(JSON.stringify({ error: { header: `Bearer ${key}` } }))} end`,
      `url ?token=${encodeURIComponent(odd)}`,
      `raw ${odd}`,
      `b64 ${b64(odd)} b64url ${b64url(`Authorization: Bearer ${odd}`)}`,
    ];
    for (const text of texts) {
      const clean = redactSecrets(text, [key, odd]);
      expect(clean, text).toContain('***');
      for (const secret of [key, odd]) {
        for (const form of [secret, encodeURIComponent(secret), b64(secret), b64(`Bearer ${secret}`), b64url(secret), b64url(`Bearer ${secret}`)]) {
          expect(clean.includes(form), `${text} → ${clean}`).toBe(false);
        }
      }
    }
    expect(redactSecrets(`header was "Bearer ${key}"`, [key])).toBe('header was "Bearer ***"');
    expect(redactSecrets(`echo: ${b64(`Bearer ${key}`)}!`, [key])).toBe('echo: ***!');
  });

  it('leaves other text alone, also other base64', () => {
    const other = `echo ${b64('Bearer sk-someone-else-entirely-000000')} and plain words`;
    expect(redactSecrets(other, [key])).toBe(other);
    expect(redactSecrets('short abc', ['abc'])).toBe('short abc');
  });

  it('runs in linear time on a long base64 text', () => {
    const long = randomBytes(3 * 1024 * 1024).toString('base64');
    const text = `${long} then the key ${b64(key)}`;
    const clean = redactSecrets(text, [key]);
    expect(clean).toBe(`${long} then the key ***`);
  });
});

describe('registered secrets', () => {
  const key = `sk-registered-${randomBytes(12).toString('hex')}`;
  registerSecret(key);

  it('are cut out of nested values without changing the input', () => {
    const input = { messages: [{ role: 'tool', content: `got ${b64(key)}` }], other: { n: 1 } };
    const clean = redactKnownDeep(input);
    expect(clean).toEqual({ messages: [{ role: 'tool', content: 'got ***' }], other: { n: 1 } });
    expect(input.messages[0]!.content).toBe(`got ${b64(key)}`);
    expect(clean.other).toBe(input.other);
    expect(redactKnown(`x ${key} y`)).toBe('x *** y');
  });

  it('never reach an event or a stored error', () => {
    const ws = tempWorkspace('crewdeck-redaction-');
    try {
      const log = new RunEventLog('run-redact');
      const seen: unknown[] = [];
      log.listen((e) => seen.push(e));
      log.listen((e) => ws.store.appendEvent(e));
      ws.store.createRun({ id: 'run-redact', kind: 'crew', documentId: 'c', name: 'C', document: {}, inputs: {}, startedAt: 1 });
      log.root().emit({ type: 'tool.completed', tool: 'http_request', result: `HTTP 401\n\n${b64url(`Bearer ${key}`)}`, durationMs: 1, resultAsAnswer: false });
      ws.store.finishRun('run-redact', { status: 'failed', error: `server said ${encodeURIComponent(key)} / ${b64(key)}`, tokenUsage: emptyUsage(), endedAt: 2 });
      expect(seen).toMatchObject([{ type: 'tool.completed', result: 'HTTP 401\n\n***' }]);
      expect(ws.store.events('run-redact')).toMatchObject([{ type: 'tool.completed', result: 'HTTP 401\n\n***' }]);
      expect(ws.store.getRun('run-redact')?.error).toBe('server said *** / ***');
    } finally {
      ws.remove();
    }
  });
  it('never reach the stored output of a run whose model echoed one', async () => {
    const ws = tempWorkspace('crewdeck-redaction-run-');
    try {
      const doc = crew({
        agents: [{ id: 'echo', role: 'Echo', goal: 'repeat things', llm: scripted({ default: `The key is ${key} (${b64(key)})` }, 'echo') }],
        tasks: [{ id: 't', description: 'Say the key', expectedOutput: 'the key', agentId: 'echo' }],
      });
      const { result } = await runCrew(doc, { workspace: ws });
      expect(result.status).toBe('completed');
      // Through the store's API, and in the run's own row as SQLite holds it.
      expect(ws.store.getRun(result.runId)?.output).toBe('The key is *** (***)');
      ws.store.flush();
      const db = new Database(workspaceDatabasePath(ws.dir), { readonly: true, fileMustExist: true });
      try {
        const row = db.prepare('SELECT output FROM runs WHERE id = ?').get(result.runId) as { output: string | null };
        expect(row.output).toContain('The key is ***');
        expect(row.output).not.toContain(key);
        expect(row.output).not.toContain(b64(key));
      } finally {
        db.close();
      }
    } finally {
      ws.remove();
    }
  });
});
