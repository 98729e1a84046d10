import type { RuntimeEvent } from '../../shared/events';
import type { HostPush, HostResponse } from '../../shared/host-api';
import type { WorkspaceSettings } from '../../shared/model/workspace';
import { errorMessage } from '../errors';
import type { RunStore } from '../store/types';
import { collectDeployment } from '../team/deploymentBundle';
import { TeamClient } from '../team/teamClient';
import type { TeamRunView } from '../team/teamRuns';
import { teamRunSummary } from '../team/teamRunShape';
import { HostBadInput, HostConflict } from './hostErrors';
import type { ToolApprovalDecision } from '../../shared/events';
import type { Budget } from '../../shared/model/budget';

type Summary = HostResponse<'runs.list'>['runs'][number];

const ENDED = new Set(['completed', 'failed', 'cancelled']);

/**
 * The workspace's team server, as the app sees it: its runs listed beside the local ones (marked), a team
 * run's events read from the server and, while it goes on, pushed like a local run's (its SSE stream,
 * resumed with Last-Event-ID), *Run on team server* and *Share run*. The server's URL is the workspace
 * setting `team.server`; the key is CREWDECK_API_KEY, kept like a model key (keychain or environment).
 */
export class HostTeam {
  private readonly teamRuns = new Map<string, Summary>();
  private readonly watching = new Map<string, AbortController>();
  private lastError: string | undefined;

  constructor(
    private readonly options: {
      workspace: string;
      env: NodeJS.ProcessEnv;
      settings: () => WorkspaceSettings;
      store: RunStore;
      push: (message: HostPush) => void;
    },
  ) {}

  private client(): TeamClient | undefined {
    const server = this.options.settings().team?.server;
    const key = this.options.env.CREWDECK_API_KEY;
    return server && key ? new TeamClient(server, key, 15_000) : undefined;
  }

  private requireClient(): TeamClient {
    const client = this.client();
    if (client) return client;
    if (!this.options.settings().team?.server) throw new HostBadInput('no team server is set up: add its URL in Settings → Team server');
    throw new HostBadInput('the team server needs your key: set CREWDECK_API_KEY in Settings → API keys (or in the environment of crewdeck serve)');
  }

  status(): HostResponse<'team.status'> {
    const server = this.options.settings().team?.server;
    return { configured: server !== undefined, ...(server ? { server } : {}), keyPresent: Boolean(this.options.env.CREWDECK_API_KEY), ...(this.lastError ? { error: this.lastError } : {}) };
  }

  isTeamRun(runId: string): boolean {
    return this.teamRuns.has(runId);
  }

  /** The team server's newest runs (none when it is not set up or does not answer: `team.status` says why). */
  async list(limit: number): Promise<Summary[]> {
    const client = this.client();
    if (!client) return [];
    try {
      const page = await client.request<{ runs: TeamRunView[] }>('GET', `/v1/runs?limit=${Math.min(limit, 500)}`);
      this.lastError = undefined;
      // A run shared from this workspace is listed once: as the local run it is.
      return page.runs.filter((r) => !(r.shared === true && this.options.store.getRun(r.runId))).map((r) => this.remember(client, r));
    } catch (error) {
      this.lastError = errorMessage(error);
      return [];
    }
  }

  private remember(client: TeamClient, run: TeamRunView): Summary {
    const { team, ...summary } = teamRunSummary(run, client.baseUrl);
    const remembered: Summary = { ...summary, team: { server: team.server, status: team.status, ...(team.deploymentId ? { deploymentId: team.deploymentId } : {}) } };
    this.teamRuns.set(run.runId, remembered);
    return remembered;
  }

  /** A team run as `runs.get` gives a local one (its document, for the trace; outputs are in its events). */
  async get(runId: string): Promise<HostResponse<'runs.get'>> {
    const client = this.requireClient();
    const view = await client.request<TeamRunView & { document?: unknown }>('GET', `/v1/runs/${encodeURIComponent(runId)}?include=document`);
    const summary = this.remember(client, view);
    return { run: { ...summary, document: view.document ?? null, inputs: view.inputs, ...(view.output !== null ? { output: view.output } : {}) }, taskOutputs: [] };
  }

  /** A page of a team run's events; a run still going is then watched (its new events pushed). */
  async events(runId: string, afterSeq: number, limit: number): Promise<HostResponse<'runs.events'>> {
    const client = this.requireClient();
    const page = await client.request<{ events: RuntimeEvent[]; lastSeq: number; more: boolean }>('GET', `/v1/runs/${encodeURIComponent(runId)}/events?after=${afterSeq}&limit=${Math.min(limit, 10_000)}`);
    const known = this.teamRuns.get(runId);
    if (!page.more && (!known?.team || !ENDED.has(known.team.status))) this.watch(client, runId, page.lastSeq);
    return page;
  }

  /** Publishes the document, starts it on the team server and watches it. */
  async start(path: string, inputs: Record<string, string>): Promise<HostResponse<'runs.startTeam'>> {
    const client = this.requireClient();
    const bundle = collectDeployment(this.options.workspace, path);
    const published = await client.request<{ id: string }>('POST', '/v1/deployments', bundle);
    const { runId } = await client.request<{ runId: string }>('POST', `/v1/deployments/${encodeURIComponent(published.id)}/runs`, { inputs });
    this.remember(client, await client.request<TeamRunView>('GET', `/v1/runs/${encodeURIComponent(runId)}`));
    this.watch(client, runId, 0);
    this.options.push({ kind: 'runs.changed' });
    return { runId, server: client.baseUrl };
  }

  /** *Publish to team server…*: the document and what it needs, as an immutable version (an unchanged one keeps its version). */
  async publish(path: string): Promise<HostResponse<'team.publish'>> {
    const client = this.requireClient();
    const bundle = collectDeployment(this.options.workspace, path);
    const published = await client.request<{ id: string; kind: 'crew' | 'flow'; name: string; version: number; created: boolean }>('POST', '/v1/deployments', bundle);
    return { id: published.id, kind: published.kind, name: published.name, version: published.version, created: published.created, server: client.baseUrl, files: Object.keys(bundle.files).sort() };
  }

  /**
   * Answers what a team run waits for, through the API (`POST /v1/runs/{id}/resume` with its pending
   * requestId): a flow's feedback, a crew's task review (feedback; '' accepts) or tool approval
   * (decision), a higher budget. Then its events stream here again.
   */
  async resume(runId: string, answer: { feedback?: string; decision?: ToolApprovalDecision; budget?: Budget }): Promise<HostResponse<'runs.resume'>> {
    const client = this.requireClient();
    const run = await client.request<TeamRunView>('GET', `/v1/runs/${encodeURIComponent(runId)}`);
    if (!run.pending) throw new HostConflict(`team run ${runId} is ${run.status}: it waits for nothing (answered already, or it ended)`);
    await client.request('POST', `/v1/runs/${encodeURIComponent(runId)}/resume`, { requestId: run.pending.requestId, ...resumeBody(run.pending.kind, answer) });
    this.remember(client, await client.request<TeamRunView>('GET', `/v1/runs/${encodeURIComponent(runId)}`));
    this.watch(client, runId, run.lastSeq);
    this.options.push({ kind: 'runs.changed' });
    return { runId };
  }

  /** Uploads a local run for the team (record, events, task outputs). */
  async share(runId: string): Promise<HostResponse<'runs.share'>> {
    const client = this.requireClient();
    const store = this.options.store;
    const run = store.getRun(runId);
    if (!run) throw new HostBadInput(`no run ${runId} in this workspace`);
    const { replayOf: _r, documentPath: _d, offlineFrom: _o, durationMs: _m, ...record } = run;
    await client.request('POST', '/v1/runs', { run: record, events: store.events(runId), taskOutputs: store.taskOutputs(runId) });
    this.options.push({ kind: 'runs.changed' });
    return { runId, server: client.baseUrl };
  }

  /** Pushes the run's events from `after` on as they are committed on the server, until the run ends. */
  private watch(client: TeamClient, runId: string, after: number): void {
    if (this.watching.has(runId)) return;
    const controller = new AbortController();
    this.watching.set(runId, controller);
    void (async () => {
      try {
        for await (const event of client.stream(runId, { after, signal: controller.signal })) this.options.push({ kind: 'event', event });
      } catch {
        // Stopped (the app closes) or the server went away: opening the run again reads what was missed.
      } finally {
        this.watching.delete(runId);
        this.options.push({ kind: 'runs.changed' });
      }
    })();
  }

  close(): void {
    for (const controller of this.watching.values()) controller.abort(new Error('closing'));
    this.watching.clear();
  }
}

/** The API's resume body for an answer given in the app (see README: People in team runs). */
function resumeBody(kind: string, answer: { feedback?: string; decision?: ToolApprovalDecision; budget?: Budget }): Record<string, unknown> {
  const budget = { ...(answer.budget?.maxTokens ? { maxTokens: answer.budget.maxTokens } : {}), ...(answer.budget?.maxCostUsd ? { maxCostUsd: answer.budget.maxCostUsd } : {}) };
  if (kind === 'tool_approval') return answer.decision === 'always' ? { approve: true, outcome: 'always' } : { approve: answer.decision === 'approve' };
  if (kind === 'task_review') return answer.feedback ? { feedback: answer.feedback } : { approve: true };
  return { ...(answer.feedback !== undefined ? { feedback: answer.feedback } : {}), ...budget };
}
