import { afterEach, describe, expect, it } from 'vitest';
import type { HostResponse } from '../../shared/host-api';
import { createHostService } from '../../runtime/host/createHostService';
import { mainProcessConfirmer, TerminalCodeConfirmer, type TrustConfirmer } from '../../runtime/trust/trustConfirmation';
import { tempDir } from '../cli/cliHarness';

/**
 * The renderer is untrusted (docs/SECURITY.md): every step of "run a command of my choosing" is a host
 * request it can make on its own — `settings.save` adds an MCP stdio server (`sh -c …`), `trust.grant`
 * trusts it, `runs.start` starts it. So a grant needs a person's confirmation from outside the renderer:
 * a code printed on the serving terminal (browser mode) or Electron main's native dialog, and it covers
 * exactly the parts that were shown.
 */
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

const EVIL = { transport: 'stdio', command: 'sh', args: ['-c', 'touch pwned'] };

/** A clock the test moves: the trust code's waits are checked without sleeping. */
function fakeClock(start = 1_700_000_000_000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => void (t += ms) };
}

async function hostWithSavedServer(confirmTrust?: TrustConfirmer) {
  const ws = tempDir('crewdeck-selftrust-');
  ws.write('crewdeck.json', { version: 1, models: { profiles: {} } });
  const host = createHostService({ workspace: ws.dir, transport: 'websocket', env: {}, confirmTrust });
  cleanups.push(async () => {
    await host.close();
    ws.remove();
  });
  const save = (servers: Record<string, unknown>) => host.handle('settings.save', { settings: { version: 1, models: { profiles: {} }, mcp: { servers } } });
  expect(await save({ evil: EVIL })).toMatchObject({ ok: true, response: { problems: [] } });
  const status = async () => {
    const r = await host.handle('trust.status', {});
    if (!r.ok) throw new Error(r.error.message);
    return r.response as HostResponse<'trust.status'>;
  };
  const grant = async (request: { code?: string; fingerprint?: string } = {}) => {
    const r = await host.handle('trust.grant', request);
    if (!r.ok) throw new Error(r.error.message);
    return r.response as HostResponse<'trust.grant'>;
  };
  return { host, save, status, grant };
}

describe('the renderer alone cannot trust a command it saved', () => {
  it('a host with no way to ask a person refuses every grant and names crewdeck trust', async () => {
    const { grant, status } = await hostWithSavedServer();
    const answer = await grant({ code: '000000', fingerprint: (await status()).fingerprint });
    expect(answer.trusted).toBe(false);
    expect(answer.confirmation).toMatchObject({ codeRequired: false, message: expect.stringContaining('crewdeck trust') });
    expect((await status()).trusted).toBe(false);
  });

  it('browser mode: a grant goes through only with the code printed on the terminal, for the parts it was issued for', async () => {
    const printed: string[] = [];
    let next = 0;
    const codes = ['314159', '271828', '161803'];
    const clock = fakeClock();
    const { grant, status, save } = await hostWithSavedServer(new TerminalCodeConfirmer((t) => printed.push(t), clock.now, () => codes[next++]!));

    const asked = await grant();
    expect(asked).toMatchObject({ trusted: false, confirmation: { codeRequired: true } });
    expect(printed.join('')).toContain("runs: sh -c 'touch pwned'");
    expect(printed.join('')).toContain('314 159');

    expect((await grant({ code: '999999' })).trusted).toBe(false); // a guess
    expect((await status()).trusted).toBe(false);

    // The renderer adds another server after the code was printed: the code no longer fits what was shown.
    await save({ evil: EVIL, other: { transport: 'stdio', command: 'sh', args: ['-c', 'touch other'] } });
    expect((await grant({ code: '314159' })).trusted).toBe(false);
    expect(printed.join('')).toContain('271 828'); // a new code, with the new summary
    expect(printed.join('')).toContain("runs: sh -c 'touch other'");

    // A wrong code makes the next guess wait (1 s after the first): asked sooner, it is not even compared.
    expect((await grant({ code: '271 828' })).confirmation?.message).toMatch(/^wait 1 second before trying another code/);
    clock.advance(1_000);
    const granted = await grant({ code: '271 828' });
    expect(granted.trusted).toBe(true);
    expect(granted.confirmation).toBeUndefined();
    expect((await status()).trusted).toBe(true);
  });

  it('browser mode: five wrong codes end the code', async () => {
    const clock = fakeClock();
    const { grant } = await hostWithSavedServer(new TerminalCodeConfirmer(() => {}, clock.now, () => '123456'));
    await grant();
    for (let i = 0; i < 5; i++) {
      const answer = await grant({ code: '654321' });
      expect(answer.trusted).toBe(false);
      expect(answer.confirmation?.message).toMatch(/^that is not the code printed in the terminal/);
      clock.advance(16_000); // past the wait (1, 2, 4, 8 s), within the code's 5 minutes
    }
    // Ended: the right code no longer works (the request mints a new code instead).
    expect((await grant({ code: '123456' })).confirmation?.message).toBe('Enter the code printed in the terminal where `crewdeck serve` runs');
  });

  it('Electron: the runtime grants only the fingerprint main showed in its dialog', async () => {
    const { grant, status, save } = await hostWithSavedServer(mainProcessConfirmer);
    expect((await grant()).trusted).toBe(false); // no fingerprint: not from main's dialog
    const shown = (await status()).fingerprint;
    await save({ evil: EVIL, other: { transport: 'stdio', command: 'sh', args: ['-c', 'touch other'] } });
    expect((await grant({ fingerprint: shown })).trusted).toBe(false); // changed since the dialog
    expect((await grant({ fingerprint: (await status()).fingerprint })).trusted).toBe(true);
  });
});
