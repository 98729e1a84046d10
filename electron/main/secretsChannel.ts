import type { HostChannel, HostResult } from '../../shared/host-api';
import { SecretStoreError, type SecretStore } from './secretStore';

export const SECRET_CHANNELS = ['secrets.list', 'secrets.set', 'secrets.delete'] as const satisfies readonly HostChannel[];
export type SecretChannel = (typeof SECRET_CHANNELS)[number];

export function isSecretChannel(channel: HostChannel): channel is SecretChannel {
  return (SECRET_CHANNELS as readonly string[]).includes(channel);
}

export interface SecretsDeps {
  store: SecretStore;
  /** Variable names the workspace refers to, and whether each is set in the runtime's environment. */
  referencedNames(): Promise<Array<{ name: string; present: boolean }>>;
  /** main's own environment at start: a deleted key falls back to the shell's value, if it had one. */
  baseEnv: NodeJS.ProcessEnv;
  /** Sends variables to the runtime process (`null` unsets). */
  applyEnv(values: Record<string, string | null>): void;
}

/**
 * The desktop app answers `secrets.*` itself: keys are encrypted with safeStorage in main and copied
 * into the runtime's environment; values never go back to the renderer or into logs.
 * `request` has already passed the contract's schema (checkHostRequest in shared/host-api.ts).
 */
export async function handleSecretRequest(channel: SecretChannel, request: unknown, deps: SecretsDeps): Promise<HostResult<HostChannel>> {
  try {
    switch (channel) {
      case 'secrets.list': {
        const stored = new Set(deps.store.names());
        const names = new Map<string, { name: string; present: boolean; stored: boolean }>();
        for (const { name, present } of await deps.referencedNames().catch(() => [])) {
          names.set(name, { name, present: present || stored.has(name), stored: stored.has(name) });
        }
        for (const name of stored) if (!names.has(name)) names.set(name, { name, present: true, stored: true });
        const writable = deps.store.unavailableReason() === undefined;
        return { ok: true, response: { writable, names: [...names.values()].sort((a, b) => a.name.localeCompare(b.name)) } };
      }
      case 'secrets.set': {
        const { name, value } = request as { name: string; value: string };
        deps.store.set(name, value);
        deps.applyEnv({ [name]: value });
        return { ok: true, response: {} };
      }
      case 'secrets.delete': {
        const { name } = request as { name: string };
        if (deps.store.delete(name)) deps.applyEnv({ [name]: deps.baseEnv[name] ?? null });
        return { ok: true, response: {} };
      }
    }
  } catch (error) {
    if (error instanceof SecretStoreError) {
      return { ok: false, error: { code: error.reason === 'invalid' ? 'bad_input' : error.reason === 'unavailable' ? 'conflict' : 'internal', message: error.message } };
    }
    return { ok: false, error: { code: 'internal', message: `could not ${channel.slice('secrets.'.length)} the key: ${(error as Error).message}` } };
  }
}

/** The values the runtime starts with: the store's keys over main's environment. */
export function storedEnvironment(store: SecretStore, log: (line: string) => void): Record<string, string> {
  try {
    const { values, failed } = store.decryptAll();
    if (failed.length > 0) log(`crewdeck: could not decrypt the stored keys ${failed.join(', ')} (the keychain changed?); set them again in Settings`);
    return values;
  } catch (error) {
    log(`crewdeck: ${(error as Error).message}`);
    return {};
  }
}
