import { HOST_CHANNELS, isHostChannel, type HostChannel, type HostErrorData } from '../../shared/host-api';
import { problemsFromZod } from '../../shared/model/problems';

export type GateResult = { ok: true; channel: HostChannel; request: unknown } | { ok: false; error: HostErrorData };

/**
 * The main process's check of everything the window asks: the renderer is untrusted, so the channel
 * must be one of the contract's and the request must match its zod schema before it goes any further.
 * On success `request` is the parsed value (defaults applied; strict schemas refuse unknown keys).
 * Same codes and wording as the HostService's own check, which runs again in the runtime process.
 */
export function checkHostRequest(channel: unknown, request: unknown): GateResult {
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
