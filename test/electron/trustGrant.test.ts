import { describe, expect, it } from 'vitest';
import type { HostChannel, HostResult, TrustStatus } from '../../shared/host-api';
import { grantTrustWithDialog, trustDialogText } from '../../electron/main/trustGrant';

const untrusted: TrustStatus = {
  needed: true,
  trusted: false,
  fingerprint: 'f1',
  parts: [
    { kind: 'command', where: 'crewdeck.json mcp.servers.fs', summary: 'runs: npx server-filesystem ./data', trusted: false },
    { kind: 'secret', where: 'crewdeck.json models.profiles.local', summary: 'sends $KEY to 10.0.0.5', trusted: true },
  ],
};

function runtime() {
  const calls: { channel: string; request: Record<string, unknown> }[] = [];
  const request = async (channel: 'trust.status' | 'trust.grant', req: Record<string, unknown>): Promise<HostResult<HostChannel>> => {
    calls.push({ channel, request: req });
    if (channel === 'trust.status') return { ok: true, response: untrusted };
    return { ok: true, response: { ...untrusted, trusted: true } };
  };
  return { calls, request };
}

describe("main answers the window's trust.grant after a native dialog", () => {
  it('sends no grant when the person cancels', async () => {
    const r = runtime();
    const answer = await grantTrustWithDialog(r.request, async () => false);
    expect(r.calls.map((c) => c.channel)).toEqual(['trust.status']);
    expect(answer).toMatchObject({ ok: true, response: { trusted: false, confirmation: { message: 'Trust was not given.' } } });
  });

  it('grants exactly what the dialog showed: the fingerprint of that status, nothing from the renderer', async () => {
    const r = runtime();
    let shown: TrustStatus | undefined;
    const answer = await grantTrustWithDialog(r.request, async (s) => ((shown = s), true));
    expect(shown).toEqual(untrusted);
    expect(r.calls).toEqual([
      { channel: 'trust.status', request: {} },
      { channel: 'trust.grant', request: { fingerprint: 'f1' } },
    ]);
    expect(answer).toMatchObject({ ok: true, response: { trusted: true } });
  });

  it('the dialog lists every untrusted part', () => {
    const { message, detail } = trustDialogText(untrusted);
    expect(message).toBe('Trust this workspace?');
    expect(detail).toContain('crewdeck.json mcp.servers.fs: runs: npx server-filesystem ./data');
    expect(detail).not.toContain('10.0.0.5'); // already trusted
  });
});
