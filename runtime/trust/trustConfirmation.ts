import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import type { TrustStatus } from './workspaceTrust';

/**
 * Who confirms a trust grant asked for by the renderer. The renderer is untrusted (docs/SECURITY.md):
 * whatever it shows can come from a model, so a grant it asks for alone proves no person saw the summary.
 * A grant goes through only with proof from outside the renderer:
 *
 * - browser mode (`crewdeck serve`): a one-time code printed on the terminal that serves the app, which
 *   the person types into the trust banner (`TerminalCodeConfirmer`);
 * - Electron: the main process shows the summary in a native dialog and sends the grant itself, with the
 *   fingerprint of what it showed (`MainProcessConfirmer`); the renderer's requests reach the runtime only
 *   through main, which answers `trust.grant` itself.
 *
 * Either way a grant covers exactly the parts that were shown: a part added or changed in between
 * changes the fingerprint, and the grant is refused.
 */
export interface TrustGrantRequest {
  /** The code from the terminal (browser mode). */
  code?: string;
  /** The fingerprint of the parts the person was shown (set by Electron's main process). */
  fingerprint?: string;
}

export type TrustConfirmation = { confirmed: true } | { confirmed: false; codeRequired: boolean; message: string };

export interface TrustConfirmer {
  confirm(status: TrustStatus, request: TrustGrantRequest): TrustConfirmation;
}

/** The parts a grant would cover, as one hash: what the person is shown and what the grant must match. */
export function trustFingerprint(status: TrustStatus): string {
  const digests = status.untrusted.map((p) => p.digest).sort();
  return createHash('sha256').update(digests.join('\n')).digest('hex').slice(0, 32);
}

/** No confirmer: the app cannot trust on its own; `crewdeck trust` in a terminal can. */
export const refuseRendererGrants: TrustConfirmer = {
  confirm: () => ({
    confirmed: false,
    codeRequired: false,
    message: 'this host cannot confirm trust with a person; run `crewdeck trust` in a terminal in the workspace folder',
  }),
};

/** Electron: main confirmed in a native dialog and sends the fingerprint of what it showed. */
export const mainProcessConfirmer: TrustConfirmer = {
  confirm(status, request) {
    if (request.fingerprint && request.fingerprint === trustFingerprint(status)) return { confirmed: true };
    return { confirmed: false, codeRequired: false, message: 'the workspace changed while the trust dialog was open; look again and trust it again' };
  },
};

const CODE_TTL_MS = 5 * 60_000;
const MAX_WRONG_CODES = 5;

/**
 * Browser mode: the first grant request prints a six-digit code and the summary on the serving terminal;
 * a grant with that code (within five minutes, for the same parts) goes through. Five wrong codes end the
 * code, so it cannot be guessed from the page.
 */
export class TerminalCodeConfirmer implements TrustConfirmer {
  private pending: { code: string; fingerprint: string; expires: number; wrong: number } | undefined;

  constructor(
    private readonly write: (text: string) => void,
    private readonly now: () => number = Date.now,
    private readonly newCode: () => string = () => String(randomInt(0, 1_000_000)).padStart(6, '0'),
  ) {}

  confirm(status: TrustStatus, request: TrustGrantRequest): TrustConfirmation {
    const fingerprint = trustFingerprint(status);
    const pending = this.pending;
    if (request.code !== undefined && pending && pending.fingerprint === fingerprint && pending.expires > this.now()) {
      if (sameCode(request.code.replace(/\s+/g, ''), pending.code)) {
        this.pending = undefined;
        return { confirmed: true };
      }
      if (++pending.wrong >= MAX_WRONG_CODES) this.pending = undefined;
      return { confirmed: false, codeRequired: true, message: 'that is not the code printed in the terminal' + (this.pending ? '' : '; ask for a new one') };
    }
    const code = this.newCode();
    this.pending = { code, fingerprint, expires: this.now() + CODE_TTL_MS, wrong: 0 };
    const lines = status.untrusted.map((p) => `    ${p.where}: ${p.summary}`);
    this.write(
      `\nThe app asks to trust this workspace. Trusting it lets it:\n${lines.join('\n')}\n` +
        `  If you asked for this, enter this code in the browser: ${code.slice(0, 3)} ${code.slice(3)}  (valid 5 minutes)\n\n`,
    );
    return {
      confirmed: false,
      codeRequired: true,
      message: 'Enter the code printed in the terminal where `crewdeck serve` runs',
    };
  }
}

function sameCode(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
