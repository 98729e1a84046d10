import { checkHostRequest, HOST_CHANNELS, type HostChannel } from '../../../shared/host-api';
import { problemsFromZod } from '../../../shared/model/problems';

/**
 * The host contract as renderer test fakes must keep it: every request the renderer sends is checked
 * with the request schema the real host checks it with, and every response a fake gives back with the
 * channel's response schema. A break is recorded (the test fails in afterEach, see
 * test/support/hostContractGuard.ts, even when the renderer swallows the error) and thrown.
 */
export const contractViolations: string[] = [];

export class HostContractViolation extends Error {
  override name = 'HostContractViolation';
}

function violation(message: string): never {
  contractViolations.push(message);
  throw new HostContractViolation(message);
}

/** The request as the real host would parse it (defaults applied), or a violation. */
export function checkedRequest(channel: HostChannel, request: unknown): unknown {
  const checked = checkHostRequest(channel, request);
  if (!checked.ok) violation(`the renderer sent ${channel} a request the host refuses: ${checked.error.message}`);
  return checked.request;
}

/** The response, if it fits the channel's response schema; otherwise a violation naming the fields. */
export function checkedResponse<T>(channel: HostChannel, response: T): T {
  const parsed = HOST_CHANNELS[channel].response.safeParse(response);
  if (!parsed.success) {
    violation(`a test fake answered ${channel} with a response outside the contract: ${problemsFromZod(parsed.error).map((p) => `${p.path}: ${p.message}`).join('; ')}`);
  }
  return response;
}
