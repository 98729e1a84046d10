import type { HostErrorCode, HostErrorData } from '../../shared/host-api';

/** A request the host refused or failed; `problems` lists `path: message` pairs when there are any. */
export class HostCallError extends Error {
  readonly code: HostErrorCode;
  readonly problems?: HostErrorData['problems'];
  constructor(readonly channel: string, data: HostErrorData) {
    super(data.message);
    this.name = 'HostCallError';
    this.code = data.code;
    this.problems = data.problems;
  }
}
