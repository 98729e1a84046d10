import { errorMessage } from '../../errors';
import { TeamSchemaOutdated, TeamSchemaTooNew } from '../../store/postgresSchema';
import { TeamServiceUnavailable } from '../../team/teamErrors';
import { createStyle, colorFor } from '../style';
import { EXIT } from '../usage';

/**
 * A server or worker that cannot start (PostgreSQL or Redis unreachable, schema newer or not migrated):
 * one clear line (or `{"status":"refused",…}` with --json), exit code 2. Anything else is rethrown.
 */
export function reportRefusal(error: unknown, json: boolean): number {
  if (!(error instanceof TeamServiceUnavailable || error instanceof TeamSchemaTooNew || error instanceof TeamSchemaOutdated)) throw error;
  if (json) process.stdout.write(`${JSON.stringify({ status: 'refused', error: errorMessage(error) })}\n`);
  const style = createStyle(colorFor(process.stderr));
  process.stderr.write(`${style.red('error:')} ${errorMessage(error)}\n`);
  return EXIT.badInput;
}
