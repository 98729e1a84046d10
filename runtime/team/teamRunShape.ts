import { emptyUsage, type TokenUsage } from '../../shared/usage';
import type { RunStatus, RunSummary, StoredTaskOutput } from '../store/types';
import type { TeamRunView } from './teamRuns';

/** Where a team run is, beside the local shape: the server, its exact status there, its deployment. */
export interface TeamMark {
  server: string;
  /** The server's status: queued, running, waiting (a person), paused (a budget), completed, failed, cancelled. */
  status: string;
  deploymentId?: string;
  version?: number;
}

export type TeamRunSummary = RunSummary & { team: TeamMark };

/**
 * A team run in the shapes of the local store, so `crewdeck runs list|show --json --server`, `run --json
 * --server` and the app's run list read team runs as they read local ones. The local status vocabulary
 * has no `queued` or `waiting`: a queued run is `running` and a waiting one `paused` there, and `team.status`
 * keeps the server's own word.
 */
export function teamRunSummary(run: TeamRunView, server: string): TeamRunSummary {
  const startedAt = run.startedAt ?? run.createdAt;
  return {
    id: run.runId,
    kind: run.kind,
    documentId: run.deploymentId ?? run.name,
    name: run.name,
    status: localStatus(run.status),
    startedAt,
    ...(run.endedAt !== undefined ? { endedAt: run.endedAt, durationMs: run.endedAt - startedAt } : {}),
    tokenUsage: { ...emptyUsage(), ...(run.usage as Partial<TokenUsage>) },
    ...(run.replayOf ? { replayOf: run.kind === 'flow' ? { runId: run.replayOf.runId, fromMethodId: run.replayOf.from } : { runId: run.replayOf.runId, fromTaskId: run.replayOf.from } } : {}),
    ...(run.error !== undefined ? { error: run.error } : {}),
    ...(run.documentPath !== undefined ? { documentPath: run.documentPath } : {}),
    team: { server, status: run.status, ...(run.deploymentId ? { deploymentId: run.deploymentId } : {}), ...(run.version !== undefined ? { version: run.version } : {}) },
  };
}

/** `runs show --json`: the summary, its inputs and output, and the task outputs (as for a local run). */
export function teamRunRecord(run: TeamRunView & { tasks?: StoredTaskOutput[] }, server: string): TeamRunSummary & { inputs: Record<string, string>; output?: string; tasks: StoredTaskOutput[]; pending?: TeamRunView['pending'] } {
  return {
    ...teamRunSummary(run, server),
    inputs: run.inputs,
    ...(run.output !== null ? { output: run.output } : {}),
    tasks: run.tasks ?? [],
    ...(run.pending ? { pending: run.pending } : {}),
  };
}

/** `run --json` / `resume --json` of a team run: what the local commands print for the run they ran. */
export function teamRunResult(run: TeamRunView & { tasks?: StoredTaskOutput[] }, server: string): Record<string, unknown> {
  const status = run.status === 'completed' ? 'completed' : run.status === 'waiting' || run.status === 'paused' ? 'paused' : run.status === 'queued' || run.status === 'running' ? 'running' : 'failed';
  return {
    runId: run.runId,
    status,
    output: run.output ?? '',
    ...(run.kind === 'flow' ? { state: run.state ?? {} } : { tasks: (run.tasks ?? []).map((t) => ({ taskId: t.taskId, agentRole: t.agentRole, raw: t.raw, ...(t.json !== undefined ? { json: t.json } : {}), ...(t.skipped ? { skipped: true } : {}) })) }),
    ...(run.pending ? { pending: run.pending } : {}),
    tokenUsage: { ...emptyUsage(), ...(run.usage as Partial<TokenUsage>) },
    ...(run.error !== undefined ? { error: run.status === 'cancelled' ? `run cancelled: ${run.error}` : run.error } : {}),
    team: { server, status: run.status },
  };
}

function localStatus(status: TeamRunView['status']): RunStatus {
  if (status === 'queued') return 'running';
  if (status === 'waiting') return 'paused';
  return status;
}
