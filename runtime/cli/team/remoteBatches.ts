import type { TeamBatchRecord, TeamBatchSummary } from '../../store/postgresBatches';
import { batchesTable, writeBatchText } from '../batchText';
import { parseOptions } from '../options';
import { colorFor, createStyle } from '../style';
import { EXIT, UsageError } from '../usage';
import { teamClientFor } from './teamCliClient';
import { reportTeamFailure } from './teamFailure';

/**
 * `crewdeck batches list|show <id>|cancel <id> --server URL`: the team server's batches, printed as the
 * workspace's are (`--json`: `{batches}` of batch summaries, `{batch}` with its rows — the run store's
 * shapes, plus the server's own `team.status`, `deploymentId` and `version`). A team batch needs no
 * `resume`: the workers top it up until every row has ended.
 */
export async function remoteBatchesCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseOptions(args, { server: { type: 'string' }, json: { type: 'boolean', default: false }, limit: { type: 'string' } });
  const [sub, batchId, ...extra] = positionals;
  if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}"`);
  if (sub === 'resume') throw new UsageError('a team batch is never interrupted: the workers go on with its rows by themselves (see crewdeck batches show <id> --server URL)');
  if (!['list', 'show', 'cancel'].includes(sub ?? '')) throw new UsageError('batches --server takes list, show <batchId> or cancel <batchId>');
  if (sub !== 'list' && !batchId) throw new UsageError(`batches ${sub!} needs a batch id (see \`crewdeck batches list --server URL\`)`);
  const client = teamClientFor(values.server);
  const json = values.json ?? false;
  const style = createStyle(!json && colorFor(process.stdout));
  const limit = values.limit === undefined ? 20 : Number(values.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 500) throw new UsageError(`--limit must be a whole number from 1 to 500, got "${values.limit ?? ''}"`);
  const path = `/v1/batches/${encodeURIComponent(batchId ?? '')}`;
  try {
    if (sub === 'list') {
      const { batches } = await client.request<{ batches: TeamBatchSummary[] }>('GET', `/v1/batches?limit=${limit}`);
      process.stdout.write(json ? `${JSON.stringify({ batches })}\n` : batches.length ? batchesTable(batches, style) : `No batches on ${client.baseUrl} yet.\n`);
    } else if (sub === 'show') {
      const batch = await client.request<TeamBatchRecord>('GET', path);
      if (json) process.stdout.write(`${JSON.stringify({ batch })}\n`);
      else writeBatchText(process.stdout, batch, style);
    } else {
      const answer = await client.request<{ status: string; stopping: string[] }>('POST', `${path}/cancel`, {});
      process.stdout.write(json ? `${JSON.stringify({ batchId, status: answer.status, stopping: answer.stopping.length })}\n` : `Cancelled ${batchId!} on ${client.baseUrl}: rows not started will not start; ${answer.stopping.length} running run${answer.stopping.length === 1 ? ' is' : 's are'} asked to stop.\n`);
    }
    return EXIT.ok;
  } catch (error) {
    return reportTeamFailure(error, json);
  }
}
