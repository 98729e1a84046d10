import { create } from 'zustand';
import type { TrustGrantResponse, TrustStatus } from '../../shared/host-api';
import { host } from '../host/hostContext';

/**
 * Workspace trust as the app shows it (docs/SECURITY.md): the held parts and whether each is trusted,
 * and where a grant stands. One store, so the banner, Settings and the Run dialog show the same Trust…
 * flow: asking for trust in one shows the code field in all of them. The page cannot trust by itself:
 * a grant needs the code `crewdeck serve` printed (browser mode) or Electron's native dialog.
 */
export interface TrustState {
  status?: TrustStatus;
  busy: boolean;
  error?: string;
  /** Set when the host asks for the code it printed on its terminal (browser mode). */
  codeAsked?: string;
  /** Subscribes to document changes (they change what needs trust) and reads the status; returns the unsubscribe. */
  attach(): () => void;
  refresh(): Promise<void>;
  /** Asks for trust; with `code`, confirms with the code the terminal printed. Resolves true once trusted. */
  grant(code?: string): Promise<boolean>;
}

export const useTrustStore = create<TrustState>()((set, get) => ({
  busy: false,

  attach() {
    void get().refresh();
    return host().subscribe((push) => {
      if (push.kind === 'documents.changed') void get().refresh();
    });
  },

  async refresh() {
    try {
      const status = await host().invoke('trust.status', {});
      // Trusted in the meantime (the terminal, another window): no code is pending any more.
      set(status.trusted ? { status, codeAsked: undefined, error: undefined } : { status });
    } catch {
      // A host without the channel (an older one) shows no banner; runs still say why they are refused.
    }
  },

  async grant(code) {
    set({ busy: true, error: undefined });
    try {
      const answer: TrustGrantResponse = await host().invoke('trust.grant', code === undefined ? {} : { code });
      const { confirmation, ...status } = answer;
      if (confirmation?.codeRequired) {
        set(code === undefined ? { status, busy: false, codeAsked: confirmation.message } : { status, busy: false, error: confirmation.message });
      } else if (confirmation) {
        set({ status, busy: false, codeAsked: undefined, error: confirmation.message });
      } else {
        set({ status, busy: false, codeAsked: undefined, error: undefined });
      }
      return status.trusted;
    } catch (e) {
      set({ busy: false, error: e instanceof Error ? e.message : String(e) });
      return false;
    }
  },
}));

/** The parts a grant would trust now (trusted ones are not listed again). */
export function untrustedParts(status: TrustStatus | undefined): TrustStatus['parts'] {
  return status?.parts.filter((p) => !p.trusted) ?? [];
}
