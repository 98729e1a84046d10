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
/** At most this many codes are minted (and printed) in any `MINT_WINDOW_MS`, whatever asks. */
const MAX_MINTS_PER_WINDOW = 10;
const MINT_WINDOW_MS = 10_000;
/** The wait after the first wrong code; each further wrong code doubles it, up to `MAX_GUESS_DELAY_MS`. */
const FIRST_GUESS_DELAY_MS = 1_000;
const MAX_GUESS_DELAY_MS = 10 * 60_000;

/**
 * Browser mode: a grant request prints a six-digit code and the summary on the serving terminal; a grant
 * with that code (within five minutes, for the same parts) goes through. The code cannot be guessed from
 * the page:
 *
 * - one code is pending at a time (one serving process serves one workspace): asking again while it is
 *   valid prints nothing new — each code is printed once;
 * - each wrong code makes the next guess wait, 1 s, 2 s, 4 s… (up to 10 minutes; a guess during the wait
 *   is not even compared), and the count carries over to new codes until a right one;
 * - five wrong codes end the code; at most ten codes are minted in any ten seconds.
 *
 * A brute force then gets about log2(t) guesses in t seconds instead of thousands a second.
 */
export class TerminalCodeConfirmer implements TrustConfirmer {
  private pending: { code: string; fingerprint: string; expires: number; wrong: number } | undefined;
  /** Wrong codes since the last right one (across codes). */
  private wrongGuesses = 0;
  private nextGuessAt = 0;
  private readonly minted: number[] = [];

  constructor(
    private readonly write: (text: string) => void,
    private readonly now: () => number = Date.now,
    private readonly newCode: () => string = () => String(randomInt(0, 1_000_000)).padStart(6, '0'),
  ) {}

  confirm(status: TrustStatus, request: TrustGrantRequest): TrustConfirmation {
    const now = this.now();
    const fingerprint = trustFingerprint(status);
    // A code ends when it expires or when the parts it was printed for change (a server added meanwhile).
    if (this.pending && (this.pending.expires <= now || this.pending.fingerprint !== fingerprint)) this.pending = undefined;
    const pending = this.pending;
    if (request.code !== undefined && pending) return this.guess(pending, request.code, now);
    if (pending) {
      return { confirmed: false, codeRequired: true, message: 'Enter the code printed in the terminal where `crewdeck serve` runs (it is printed once, and valid for 5 minutes)' };
    }
    return this.mint(status, fingerprint, now);
  }

  private guess(pending: NonNullable<TerminalCodeConfirmer['pending']>, code: string, now: number): TrustConfirmation {
    if (now < this.nextGuessAt) {
      return { confirmed: false, codeRequired: true, message: `wait ${seconds(this.nextGuessAt - now)} before trying another code (each wrong code doubles the wait)` };
    }
    if (sameCode(code.replace(/\s+/g, ''), pending.code)) {
      this.pending = undefined;
      this.wrongGuesses = 0;
      this.nextGuessAt = 0;
      return { confirmed: true };
    }
    this.wrongGuesses += 1;
    const delay = Math.min(MAX_GUESS_DELAY_MS, FIRST_GUESS_DELAY_MS * 2 ** Math.min(this.wrongGuesses - 1, 30));
    this.nextGuessAt = now + delay;
    if (++pending.wrong >= MAX_WRONG_CODES) this.pending = undefined;
    return {
      confirmed: false,
      codeRequired: true,
      message: `that is not the code printed in the terminal; try again in ${seconds(delay)}${this.pending ? '' : ' (that code has ended: ask for a new one)'}`,
    };
  }

  private mint(status: TrustStatus, fingerprint: string, now: number): TrustConfirmation {
    while (this.minted.length > 0 && this.minted[0]! <= now - MINT_WINDOW_MS) this.minted.shift();
    if (this.minted.length >= MAX_MINTS_PER_WINDOW) {
      return { confirmed: false, codeRequired: true, message: `too many codes were asked for; try again in ${seconds(this.minted[0]! + MINT_WINDOW_MS - now)}` };
    }
    this.minted.push(now);
    const code = this.newCode();
    this.pending = { code, fingerprint, expires: now + CODE_TTL_MS, wrong: 0 };
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

function seconds(ms: number): string {
  const s = Math.max(1, Math.ceil(ms / 1000));
  return `${s} second${s === 1 ? '' : 's'}`;
}

function sameCode(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
