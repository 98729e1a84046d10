import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { HostResponse } from '../../shared/host-api';
import { startBrowserServer } from '../../runtime/host/browserServer';
import { createHostService } from '../../runtime/host/createHostService';
import { TerminalCodeConfirmer } from '../../runtime/trust/trustConfirmation';

/**
 * Issue 26 item 4: the browser-mode trust code could be guessed (3,682 guesses/s from one socket, a new
 * code minted per grant without one, 57 MB of codes printed). Now one code is pending at a time, each
 * printed once; every wrong code doubles the wait before the next guess is even compared; at most ten
 * codes are minted in any ten seconds. The attacker here is the renderer (the host API is all it has).
 */
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

const server = (arg: string) => ({ evil: { transport: 'stdio', command: 'sh', args: ['-c', `touch ${arg}`] } });

function setup(now: () => number) {
  const dir = mkdtempSync(join(tmpdir(), 'crewdeck-bruteforce-'));
  writeFileSync(join(dir, 'crewdeck.json'), JSON.stringify({ version: 1, models: { profiles: {} }, mcp: { servers: server('pwned') } }));
  const printed: string[] = [];
  const confirmer = new TerminalCodeConfirmer((text) => printed.push(text), now);
  const host = createHostService({ workspace: dir, transport: 'websocket', env: {}, confirmTrust: confirmer });
  cleanups.push(async () => {
    await host.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const grant = async (code?: string) => {
    const r = await host.handle('trust.grant', code === undefined ? {} : { code });
    if (!r.ok) throw new Error(r.error.message);
    return r.response as HostResponse<'trust.grant'>;
  };
  const codes = () => printed.join('').match(/enter this code in the browser: (\d{3} \d{3})/g) ?? [];
  return { host, grant, printed, codes, dir };
}

describe('the trust code cannot be brute-forced', () => {
  it('over the host API at 10 requests a second for 10 minutes: 10 codes compared in all (0.017 a second), 3 codes printed, never trusted', async () => {
    let t = 1_700_000_000_000;
    const { grant, codes, host } = setup(() => t);
    let compared = 0;
    let waited = 0;
    let guess = 0;
    const seconds = 600;
    for (let i = 0; i < seconds * 10; i++) {
      // Every guess a different code; without a pending code the request mints one (rate-limited).
      const answer = await grant(String(guess++).padStart(6, '0'));
      expect(answer.trusted).toBe(false);
      const message = answer.confirmation?.message ?? '';
      if (message.startsWith('that is not the code')) compared++;
      else if (message.startsWith('wait ')) waited++;
      t += 100;
    }
    // 1 + 2 + 4 + 8 s, the code ends after 5; a new one is minted; then 16, 32… up to 10 minutes.
    expect(compared, `${compared} codes compared in ${seconds} s`).toBe(10);
    expect(compared / seconds).toBeLessThan(0.05); // guesses per second: nowhere near 10
    expect(waited).toBeGreaterThan(seconds * 10 - 30);
    expect(codes()).toHaveLength(3);
    expect(new Set(codes()).size).toBe(codes().length); // each printed once
    const status = await host.handle('trust.status', {});
    expect(status.ok && (status.response as HostResponse<'trust.status'>).trusted).toBe(false);
  }, 120_000);

  it('asking again while a code is pending prints nothing new; changing the parts mints at most 10 codes in any 10 seconds', async () => {
    let t = 1_700_000_000_000;
    const { grant, codes, host } = setup(() => t);
    for (let i = 0; i < 100; i++) await grant();
    expect(codes()).toHaveLength(1);
    // The renderer changes the settings to void the code, then asks for a new one, as fast as it can.
    for (let i = 0; i < 50; i++) {
      expect(await host.handle('settings.save', { settings: { version: 1, models: { profiles: {} }, mcp: { servers: server(`x${i}`) } } })).toMatchObject({ ok: true });
      const answer = await grant();
      if (i >= 9) expect(answer.confirmation?.message).toMatch(/^too many codes were asked for; try again in \d+ seconds?$/);
      t += 10; // 50 requests in half a second
    }
    expect(codes()).toHaveLength(10);
    t += 10_000;
    await host.handle('settings.save', { settings: { version: 1, models: { profiles: {} }, mcp: { servers: server('later') } } });
    await grant();
    expect(codes()).toHaveLength(11);
  }, 60_000);

  it('over a real WebSocket as fast as it goes: 500 guesses, a handful compared, one code printed', async () => {
    const { host, codes, dir } = setup(Date.now);
    const renderer = join(dir, 'renderer');
    mkdirSync(renderer);
    writeFileSync(join(renderer, 'index.html'), '<!doctype html>');
    const serve = await startBrowserServer({ host, rendererDir: renderer, port: 0 });
    cleanups.unshift(() => serve.close());
    const ws = new WebSocket(`ws://127.0.0.1:${serve.port}/api?token=${serve.token}`);
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    const answers = new Map<number, string>();
    const total = 500;
    // 100 guesses in flight at all times (the socket's budget allows 256), each answer sending the next.
    let next = 0;
    const sendNext = () => {
      const id = next++;
      if (id < total) ws.send(JSON.stringify({ id, channel: 'trust.grant', request: id === 0 ? {} : { code: String(id).padStart(6, '0') } }));
    };
    const done = new Promise<void>((resolve, reject) => {
      ws.once('close', (code, reason) => reject(new Error(`closed ${code} ${String(reason)}`)));
      ws.on('message', (data) => {
        const message = JSON.parse(String(data)) as { id?: number; result?: { ok: boolean; response?: HostResponse<'trust.grant'> } };
        if (message.id === undefined) return;
        answers.set(message.id, message.result?.response?.confirmation?.message ?? (message.result?.response?.trusted ? 'TRUSTED' : ''));
        if (answers.size === total) resolve();
        else sendNext();
      });
    });
    for (let i = 0; i < 100; i++) sendNext();
    await done;
    ws.removeAllListeners('close');
    ws.close();
    const compared = [...answers.values()].filter((m) => m.startsWith('that is not the code')).length;
    expect([...answers.values()]).not.toContain('TRUSTED');
    // One compared, then a wait of 1 s, 2 s…: unless 500 requests take over 15 s, only a few are compared.
    expect(compared).toBeGreaterThanOrEqual(1);
    expect(compared).toBeLessThanOrEqual(5);
    expect(codes()).toHaveLength(1);
  }, 120_000);
});
