/** The typed failures of a script (runtime/script/sandbox.ts); built in the host from what the worker reports. */

/** The user's script failed: syntax error, thrown error, memory or stack limit. */
export class ScriptError extends Error {
  override name = 'ScriptError';
  constructor(
    message: string,
    /** Line in the user's code (1-based), when known. */
    readonly line?: number,
    readonly column?: number,
    /** Name of the error inside the sandbox (`TypeError`, `SyntaxError`…), when it was an Error. */
    readonly errorName?: string,
  ) {
    super(message);
  }
}

/** The script ran longer than its time limit, or returned a promise that can never settle. */
export class ScriptTimeout extends ScriptError {
  override name = 'ScriptTimeout';
  constructor(
    readonly timeoutMs: number,
    readonly reason?: string,
  ) {
    super(`script timed out after ${timeoutMs} ms${reason ? `: ${reason}` : ''}`);
  }
}

/** The globals handed to a script cannot be passed as JSON (functions, symbols, bigints, cycles). */
export class ScriptGlobalsInvalid extends Error {
  override name = 'ScriptGlobalsInvalid';
}

/** A failure as it crosses from the worker to the host (Error instances do not keep their class). */
export type ScriptFailure =
  | { kind: 'timeout'; timeoutMs: number; reason?: string }
  | { kind: 'error'; message: string; line?: number; column?: number; errorName?: string };

/** A thrown message longer than this is cut before it leaves the worker (it goes into events and the trace). */
export const MAX_FAILURE_MESSAGE = 4000;

export function describeFailure(error: ScriptError): ScriptFailure {
  if (error instanceof ScriptTimeout) return { kind: 'timeout', timeoutMs: error.timeoutMs, reason: error.reason };
  const message = error.message.length > MAX_FAILURE_MESSAGE ? `${error.message.slice(0, MAX_FAILURE_MESSAGE)}… (${error.message.length.toLocaleString('en-US')} characters, cut)` : error.message;
  return { kind: 'error', message, line: error.line, column: error.column, errorName: error.errorName };
}

export function fromFailure(failure: ScriptFailure): ScriptError {
  if (failure.kind === 'timeout') return new ScriptTimeout(failure.timeoutMs, failure.reason);
  return new ScriptError(failure.message, failure.line, failure.column, failure.errorName);
}
