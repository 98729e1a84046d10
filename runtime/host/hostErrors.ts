import type { HostErrorData } from '../../shared/host-api';
import { isBadInput } from '../badInput';
import { DocumentInvalid, RunNotFound, TaskNotFound, errorMessage } from '../errors';

/** A document, run or request the caller named does not exist. */
export class HostNotFound extends Error {
  override name = 'HostNotFound';
}

/** The request clashes with what is there (a file in the way, a request already answered). */
export class HostConflict extends Error {
  override name = 'HostConflict';
}

/** The request is well-formed but cannot be done as asked. */
export class HostBadInput extends Error {
  override name = 'HostBadInput';
}

/** How a failure crosses the boundary: a code the renderer can act on and a message; never a stack. */
export function toHostError(error: unknown): HostErrorData {
  if (error instanceof HostNotFound || error instanceof RunNotFound || error instanceof TaskNotFound) {
    return { code: 'not_found', message: error.message };
  }
  if (error instanceof HostConflict) return { code: 'conflict', message: error.message };
  if (error instanceof DocumentInvalid) return { code: 'bad_input', message: error.message, problems: error.problems };
  if (error instanceof HostBadInput || isBadInput(error)) return { code: 'bad_input', message: errorMessage(error) };
  return { code: 'internal', message: errorMessage(error) };
}
