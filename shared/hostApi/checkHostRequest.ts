import { problemsFromZod } from '../model/problems';
import { HOST_CHANNELS, isHostChannel, type HostChannel } from './hostChannels';
import type { HostErrorData } from './hostErrors';

export type HostRequestCheck = { ok: true; channel: HostChannel; request: unknown } | { ok: false; error: HostErrorData };

/**
 * The check every host request gets on arrival (the renderer is untrusted): a contract channel, and a
 * request that matches its schema. On success `request` is the parsed value (defaults applied; strict
 * schemas refuse unknown keys). The HostService and Electron's main process both run it.
 */
export function checkHostRequest(channel: unknown, request: unknown): HostRequestCheck {
  if (!isHostChannel(channel)) {
    return { ok: false, error: { code: 'unknown_channel', message: `unknown channel ${JSON.stringify(String(channel)).slice(0, 100)}` } };
  }
  const parsed = HOST_CHANNELS[channel].request.safeParse(request ?? {});
  if (!parsed.success) {
    const problems = problemsFromZod(parsed.error);
    return {
      ok: false,
      error: { code: 'invalid_request', message: `invalid ${channel} request: ${problems.map((p) => `${p.path}: ${p.message}`).join('; ')}`, problems },
    };
  }
  return { ok: true, channel, request: parsed.data };
}
