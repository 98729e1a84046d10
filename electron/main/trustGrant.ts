import type { HostChannel, HostResult, TrustStatus } from '../../shared/host-api';

/** The runtime connection's request (it answers any channel; main knows which response each has). */
type RuntimeRequest = (channel: 'trust.status' | 'trust.grant', request: Record<string, unknown>) => Promise<HostResult<HostChannel>>;

/**
 * The window's `trust.grant`, answered in main: the renderer is untrusted, so main shows the parts in a
 * native dialog and, when the person trusts them, sends the grant with the fingerprint of exactly what
 * was shown (the runtime refuses it if anything changed meanwhile). The renderer's own fields are dropped.
 */
export async function grantTrustWithDialog(request: RuntimeRequest, confirm: (status: TrustStatus) => Promise<boolean>): Promise<HostResult<'trust.grant'>> {
  const status = (await request('trust.status', {})) as HostResult<'trust.status'>;
  if (!status.ok) return status;
  const shown = status.response;
  if (!shown.needed || shown.trusted) return { ok: true, response: shown };
  if (!(await confirm(shown))) {
    return { ok: true, response: { ...shown, confirmation: { codeRequired: false, message: 'Trust was not given.' } } };
  }
  return (await request('trust.grant', { fingerprint: shown.fingerprint })) as HostResult<'trust.grant'>;
}

/** What the native dialog says: every untrusted part, as the banner and `crewdeck trust` show them. */
export function trustDialogText(status: TrustStatus): { message: string; detail: string } {
  const parts = status.parts.filter((p) => !p.trusted).map((p) => `• ${p.where}: ${p.summary}`);
  return {
    message: 'Trust this workspace?',
    detail: `Trusting it lets it:\n${parts.join('\n')}\n\nTrust only a workspace whose settings you have read or written yourself.`,
  };
}
