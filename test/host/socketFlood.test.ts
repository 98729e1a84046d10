import { readFileSync } from 'node:fs';
import type { Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { spawnCli, tempDir, type TempWorkspace } from '../cli/cliHarness';

/**
 * Issue 26 item 5: one socket could grow the host without bound (30k requests never read: 569 MB → 945 MB
 * RSS, still 985 MB after the socket closed). The real `crewdeck serve` is flooded by a token holder that
 * never reads its replies; its resident memory is sampled before, during and after. The socket is closed
 * with 1008 (policy violation) once over its budget, the host stays near its baseline and keeps serving.
 */
let ws: TempWorkspace | undefined;
let stop: (() => Promise<void>) | undefined;
afterEach(async () => {
  await stop?.();
  ws?.remove();
});

/** The child's resident set size in MB, from /proc (Linux). */
function rssMb(pid: number): number {
  const kb = Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
  return Math.round(kb / 1024);
}

async function serve(dir: string): Promise<{ pid: number; port: number; token: string }> {
  const child = spawnCli(['serve', '--port', '0', '--workspace', dir]);
  stop = async () => {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  };
  let output = '';
  const url = await new Promise<URL>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const m = /Open (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/.exec(output);
      if (m) resolve(new URL(m[1]!));
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}:\n${output}`)));
  });
  return { pid: child.pid!, port: Number(url.port), token: url.searchParams.get('token')! };
}

function open(port: number, token: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://127.0.0.1:${port}/api?token=${token}`);
    socket.once('open', () => resolve(socket));
    socket.once('error', reject);
  });
}

function ask(socket: WebSocket, id: number, channel: string, request: unknown = {}): Promise<any> {
  return new Promise((resolve) => {
    const onMessage = (data: unknown) => {
      const message = JSON.parse(String(data));
      if (message.id !== id) return;
      socket.off('message', onMessage);
      resolve(message.result);
    };
    socket.on('message', onMessage);
    socket.send(JSON.stringify({ id, channel, request }));
  });
}

describe('browser mode under a flood', () => {
  it('30k requests never read: closed with 1008, RSS near its baseline during and after, the host still serves', async () => {
    ws = tempDir('crewdeck-flood-');
    // A document of ~40 KB: each unread reply to documents.read is that big.
    ws.write('big.crew.json', { kind: 'crew', version: 1, id: 'big', name: 'Big', agents: [], tasks: [], description: 'x'.repeat(40_000) });
    const { pid, port, token } = await serve(ws.dir);
    const warm = await open(port, token);
    for (let i = 0; i < 20; i++) expect((await ask(warm, i, 'documents.read', { path: 'big.crew.json' })).ok).toBe(true);
    warm.close();
    const baseline = Math.max(rssMb(pid), rssMb(pid));

    const flood = await open(port, token);
    const closed = new Promise<{ code: number; reason: string }>((resolve) => flood.once('close', (code, reason) => resolve({ code, reason: String(reason) })));
    // Never read: the client stops reading its socket; the server's replies pile up on its side.
    ((flood as unknown as { _socket: Socket })._socket).pause();
    const during: number[] = [];
    const request = (id: number) => JSON.stringify({ id, channel: 'documents.read', request: { path: 'big.crew.json' } });
    for (let sent = 0; sent < 30_000; sent += 1_000) {
      for (let id = sent; id < sent + 1_000; id++) if (flood.readyState === flood.OPEN) flood.send(request(id));
      await new Promise((resolve) => setImmediate(resolve));
      during.push(rssMb(pid));
    }
    // The client reads again: what the server sent before closing arrives, then the close frame.
    ((flood as unknown as { _socket: Socket })._socket).resume();
    const { code, reason } = await closed;
    expect(code).toBe(1008);
    expect(reason).toMatch(/requests in flight|not reading its replies/);

    // The host answers another page at once, and its memory is back near where it started.
    const next = await open(port, token);
    const afterSamples: number[] = [];
    for (let i = 0; i < 10; i++) {
      expect((await ask(next, i, 'documents.read', { path: 'big.crew.json' })).ok).toBe(true);
      afterSamples.push(rssMb(pid));
    }
    const after = Math.min(...afterSamples);
    next.close();
    const peak = Math.max(...during);
    // Worst case without the budget: 30k × 40 KB replies ≈ 1.2 GB held.
    expect(peak - baseline, `baseline ${baseline} MB, during up to ${peak} MB, after ${after} MB`).toBeLessThan(150);
    expect(after - baseline, `baseline ${baseline} MB, during up to ${peak} MB, after ${after} MB`).toBeLessThan(80);
    console.log(`flood: baseline ${baseline} MB, during up to ${peak} MB (samples ${during.join(' ')}), after ${after} MB; closed ${code} "${reason}"`);
  }, 90_000);
});
