import { errorMessage } from '../../errors';
import { TeamApiError, TeamUnreachable } from '../../team/teamClient';
import { colorFor, createStyle } from '../style';
import { EXIT } from '../usage';

/**
 * A team server that refused (4xx: bad input, exit 2), failed (5xx) or could not be reached (exit 1):
 * one line naming the server and why, or `{"status": …, "error": …}` with --json. Anything else is rethrown.
 */
export function reportTeamFailure(error: unknown, json: boolean): number {
  if (!(error instanceof TeamApiError || error instanceof TeamUnreachable)) throw error;
  const bad = error instanceof TeamApiError && error.status < 500;
  if (json) process.stdout.write(`${JSON.stringify({ status: bad ? 'invalid' : 'failed', error: errorMessage(error), ...(error instanceof TeamApiError ? { code: error.code, ...(error.field ? { field: error.field } : {}) } : {}) })}\n`);
  else process.stderr.write(`${createStyle(colorFor(process.stderr)).red('error:')} ${errorMessage(error)}\n`);
  return bad ? EXIT.badInput : EXIT.runFailed;
}
