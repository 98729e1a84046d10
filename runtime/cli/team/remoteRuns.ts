import type { RuntimeEvent } from '../../../shared/events';
import type { TeamRunView } from '../../team/teamRuns';
import { parseOptions } from '../options';
import { colorFor, createStyle } from '../style';
import { EXIT, UsageError } from '../usage';
import { teamClientFor } from './teamCliClient';
import { reportTeamFailure } from './teamFailure';

/**
 * `crewdeck runs list|show|events --server URL`: the team server's runs (newest first, `--cursor` for the
 * next page), one run, or its events (`--json`: one event per line, as for local runs).
 */
export async function remoteRunsCommand(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  if (!['list', 'show', 'events'].includes(sub ?? '')) throw new UsageError('runs --server takes list, show <runId> or events <runId>');
  const { values, positionals } = parseOptions(rest, {
    server: { type: 'string' },
    deployment: { type: 'string' },
    status: { type: 'string' },
    cursor: { type: 'string' },
    limit: { type: 'string' },
    after: { type: 'string' },
    json: { type: 'boolean', default: false },
  });
  const client = teamClientFor(values.server);
  const json = values.json ?? false;
  const style = createStyle(!json && colorFor(process.stdout));
  const runId = positionals[0];
  if (sub !== 'list' && (positionals.length !== 1 || !runId)) throw new UsageError(`runs ${sub!} needs exactly one run id`);
  const path = (p: string) => `/v1/runs${p}`;
  try {
    if (sub === 'list') {
      const query = new URLSearchParams({ ...(values.deployment ? { deployment: values.deployment } : {}), ...(values.status ? { status: values.status } : {}), ...(values.cursor ? { cursor: values.cursor } : {}), limit: values.limit ?? '20' });
      const page = await client.request<{ runs: TeamRunView[]; nextCursor?: string }>('GET', path(`?${query}`));
      if (json) process.stdout.write(`${JSON.stringify(page)}\n`);
      else {
        if (page.runs.length === 0) process.stdout.write(`No runs on ${client.baseUrl} yet.\n`);
        for (const r of page.runs) process.stdout.write(`${r.runId}  ${r.status.padEnd(9)} ${new Date(r.createdAt).toISOString().slice(0, 19).replace('T', ' ')}  ${r.deploymentId ?? 'shared'}${r.version ? ` v${r.version}` : ''}  ${r.name}\n`);
        if (page.nextCursor) process.stdout.write(style.dim(`More: crewdeck runs list --server ${client.baseUrl} --cursor ${page.nextCursor}\n`));
      }
    } else if (sub === 'show') {
      const run = await client.request<TeamRunView>('GET', path(`/${encodeURIComponent(runId!)}`));
      process.stdout.write(json ? `${JSON.stringify(run)}\n` : `${run.runId}  ${run.status}  ${run.name}\n${run.output ?? run.error ?? ''}\n`);
    } else {
      let after = Number(values.after ?? 0);
      for (;;) {
        const page = await client.request<{ events: RuntimeEvent[]; lastSeq: number; more: boolean }>('GET', path(`/${encodeURIComponent(runId!)}/events?after=${after}`));
        for (const event of page.events) process.stdout.write(json ? `${JSON.stringify(event)}\n` : `${String(event.seq).padStart(5)} ${event.type}\n`);
        after = page.lastSeq;
        if (!page.more) break;
      }
    }
    return EXIT.ok;
  } catch (error) {
    return reportTeamFailure(error, json);
  }
}
