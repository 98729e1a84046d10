import type { RuntimeEvent } from '../../../shared/events';
import type { StoredTaskOutput } from '../../store/types';
import type { TeamClient } from '../../team/teamClient';
import type { TeamRunView } from '../../team/teamRuns';
import { teamRunRecord, teamRunSummary } from '../../team/teamRunShape';
import { parseOptions } from '../options';
import { eventLine, runsTable, writeRunText } from '../runText';
import { colorFor, createStyle, type Style } from '../style';
import { EXIT, UsageError } from '../usage';
import { teamClientFor } from './teamCliClient';
import { reportTeamFailure } from './teamFailure';

/**
 * `crewdeck runs list|show|events --server URL`: the team server's runs, printed as the workspace's are
 * (`--json` the same shapes: a list of run summaries, a run with its task outputs, one event a line), each
 * marked with `team: {server, status}` (the server's own status: queued, waiting…). More runs than a page:
 * the next page's command goes to stderr (`--cursor`).
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
  const after = wholeNumber(values.after, 'after') ?? 0;
  try {
    if (sub === 'list') await list(client, values, json, style);
    else if (sub === 'show') await show(client, runId!, json, style);
    else for await (const event of pages(client, runId!, after)) process.stdout.write(eventLine(event, json, style));
    return EXIT.ok;
  } catch (error) {
    return reportTeamFailure(error, json);
  }
}

async function list(client: TeamClient, values: { deployment?: string; status?: string; cursor?: string; limit?: string }, json: boolean, style: Style): Promise<void> {
  const limit = wholeNumber(values.limit, 'limit') ?? 20;
  const query = new URLSearchParams({ ...(values.deployment ? { deployment: values.deployment } : {}), ...(values.status ? { status: values.status } : {}), ...(values.cursor ? { cursor: values.cursor } : {}), limit: String(limit) });
  const page = await client.request<{ runs: TeamRunView[]; nextCursor?: string }>('GET', `/v1/runs?${query}`);
  const runs = page.runs.map((r) => teamRunSummary(r, client.baseUrl));
  if (json) process.stdout.write(`${JSON.stringify(runs)}\n`);
  else if (runs.length === 0) process.stdout.write(`No runs on ${client.baseUrl} yet.\n`);
  else process.stdout.write(runsTable(runs, style));
  if (page.nextCursor) process.stderr.write(style.dim(`More: crewdeck runs list --server ${client.baseUrl} --cursor ${page.nextCursor}\n`));
}

async function show(client: TeamClient, runId: string, json: boolean, style: Style): Promise<void> {
  const run = await client.request<TeamRunView & { tasks?: StoredTaskOutput[] }>('GET', `/v1/runs/${encodeURIComponent(runId)}?include=tasks`);
  const record = teamRunRecord(run, client.baseUrl);
  if (json) {
    process.stdout.write(`${JSON.stringify(record)}\n`);
    return;
  }
  const events: RuntimeEvent[] = [];
  for await (const event of pages(client, runId, 0)) events.push(event);
  writeRunText(process.stdout, record, events, style);
  if (run.pending) process.stdout.write(`\n${style.bold(run.status === 'waiting' ? 'Waiting for an answer' : 'Paused')}: ${run.pending.prompt}\n`);
}

/** The run's events after `after`, page by page. */
async function* pages(client: TeamClient, runId: string, after: number): AsyncGenerator<RuntimeEvent> {
  let cursor = after;
  for (;;) {
    const page = await client.request<{ events: RuntimeEvent[]; lastSeq: number; more: boolean }>('GET', `/v1/runs/${encodeURIComponent(runId)}/events?after=${cursor}`);
    yield* page.events;
    cursor = page.lastSeq;
    if (!page.more) return;
  }
}

function wholeNumber(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new UsageError(`--${name} must be a whole number, got "${value}"`);
  return n;
}
