import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { HostPush } from '../../shared/host-api';
import { startBrowserServer, type BrowserServer } from '../../runtime/host/browserServer';
import type { HostService } from '../../runtime/host/hostService';

/** A host whose pushes the test makes, and whose one channel answers after pushing. */
const listeners = new Set<(push: HostPush) => void>();
const push = (p: HostPush) => listeners.forEach((l) => l(p));
const host: HostService = {
  async handle(channel) {
    push({ kind: 'documents.changed' });
    return { ok: true, response: { channel } } as never;
  },
  subscribe(listener) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  async close() {},
};

let dir: string;
let server: BrowserServer;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'crewdeck-serve-pushes-'));
  mkdirSync(join(dir, 'renderer'));
  writeFileSync(join(dir, 'renderer', 'index.html'), '<!doctype html>');
  server = await startBrowserServer({ host, rendererDir: join(dir, 'renderer'), port: 0 });
});

afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

async function open(): Promise<{ ws: WebSocket; messages: unknown[] }> {
  const ws = new WebSocket(`ws://127.0.0.1:${server.port}/api?token=${server.token}`, { origin: `http://127.0.0.1:${server.port}` });
  const messages: unknown[] = [];
  ws.on('message', (data) => messages.push(JSON.parse(String(data))));
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  return { ws, messages };
}

const until = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
};

describe('browser mode: pushes on the wire', () => {
  it('sends the pushes of one turn of the event loop as one message, in order; a lone push as `push`', async () => {
    const { ws, messages } = await open();
    const events = Array.from({ length: 300 }, (_, i) => ({ kind: 'batch.changed', batchId: `b${i}` }) as HostPush);
    for (const e of events) push(e);
    await until(() => messages.length >= 2);
    // At most 256 a message: 300 pushes in one turn are two messages, together in order.
    expect(messages).toHaveLength(2);
    expect((messages as { pushes: HostPush[] }[]).flatMap((m) => m.pushes)).toEqual(events);
    push({ kind: 'runs.changed' });
    await until(() => messages.length >= 3);
    expect(messages[2]).toEqual({ push: { kind: 'runs.changed' } });
    ws.close();
  });

  it('gathers pushes of separate turns that come within a few milliseconds into one message', async () => {
    const { ws, messages } = await open();
    const events = Array.from({ length: 4 }, (_, i) => ({ kind: 'batch.changed', batchId: `t${i}` }) as HostPush);
    for (const e of events) {
      push(e);
      await new Promise((r) => setImmediate(r));
    }
    await until(() => messages.length >= 1);
    // A request after them, on the same ordered socket: everything sent before its response has arrived
    // when the response does, so no other message of those pushes can still be on its way.
    ws.send(JSON.stringify({ id: 1, channel: 'workspace.info', request: {} }));
    // (The test host pushes documents.changed as it answers; it goes ahead of the response.)
    await until(() => messages.some((m) => (m as { id?: number }).id === 1));
    expect(messages).toEqual([{ pushes: events }, { push: { kind: 'documents.changed' } }, { id: 1, result: { ok: true, response: { channel: 'workspace.info' } } }]);
    ws.close();
  });

  it('sends what was pushed before a response ahead of it', async () => {
    const { ws, messages } = await open();
    ws.send(JSON.stringify({ id: 1, channel: 'workspace.info', request: {} }));
    await until(() => messages.length >= 2);
    expect(messages).toEqual([{ push: { kind: 'documents.changed' } }, { id: 1, result: { ok: true, response: { channel: 'workspace.info' } } }]);
    ws.close();
  });
});
