import type { HostApi } from '../../shared/host-api';

let current: HostApi | undefined;

/** Set once at start-up (main.tsx) or by a test; stores and components reach the host through it. */
export function setHost(host: HostApi): void {
  current = host;
}

export function host(): HostApi {
  if (!current) throw new Error('the host is not connected yet');
  return current;
}
