import type { Pool } from 'pg';
import type { ToolApprovalDecision } from '../../shared/events';
import { CrewDocumentSchema } from '../../shared/model/crew';
import { FlowDocumentSchema, type FlowDocument } from '../../shared/model/flow';
import { errorMessage, RunCancelled } from '../errors';
import { loadFlowCheckpoint } from '../flow/flowCheckpoint';
import { FlowNotResumable } from '../flow/flowErrors';
import { unattendedHuman } from '../human/humanChannel';
import { pausingHuman } from '../human/humanPause';
import type { RunMemoryStore } from '../memory/runMemory';
import { Recording } from '../offline/recording';
import { createRuntime, type Runtime } from '../runtime';
import { LeaseLost } from '../store/postgresErrors';
import { pendingOfCheckpoint } from '../store/postgresPending';
import { readTeamRun, type TeamRunRow } from '../store/postgresRunReads';
import { PostgresRunStore, PostgresWriter } from '../store/postgresRunStore';
import { loadWorkingCopy } from '../store/postgresWorkingCopy';
import type { SqliteRunStore } from '../store/sqliteRunStore';
import { deploymentContent, type DeploymentContent } from './deployments';
import { deploymentDocumentFile, deploymentWorkspace } from './deploymentWorkspace';
import type { RunLeases } from './runLease';

/** What a worker lends each job. */
export interface AdvanceContext {
  pool: Pool;
  leases: RunLeases;
  /** Where published versions are laid out as workspaces. */
  dataDir: string;
  /** The worker's environment: model and tool keys live here (or in the server's secrets), never in documents. */
  env: NodeJS.ProcessEnv;
  /** The shared memory of a deployment whose crews remember (team mode: one LanceDB location for every worker). */
  memory(content: DeploymentContent): Promise<RunMemoryStore | undefined>;
  /** Registers the run's cancel callback (a LISTEN on `crewdeck_cancel` calls it); returns the unregister. */
  onCancel(runId: string, cancel: (reason: string) => void): () => void;
  log(line: string): void;
}

export type AdvanceOutcome = 'skipped' | 'advanced' | 'lease-lost';

/** A published deployment is trusted by whoever published it (the deploy scope): nothing is held on a worker. */
const PUBLISHED = { require: () => undefined };

/**
 * One job: "advance run R from its checkpoint". Claims R's lease (skips when it is held or has nothing to
 * do), loads R from PostgreSQL, runs the session the run is at (start, replay, resume after a pause or a
 * crash, or cancel a stopped run), and returns when every write is committed.
 */
export async function advanceRun(ctx: AdvanceContext, runId: string): Promise<AdvanceOutcome> {
  const row = await ctx.leases.claim(runId);
  if (!row) return 'skipped';
  if (row.cancel_requested !== null && row.last_seq === 0) {
    await endUnstarted(ctx, runId, 'cancelled', row.cancel_requested);
    return 'advanced';
  }
  const controller = new AbortController();
  const writer = new PostgresWriter(ctx.pool, runId, ctx.leases.owner, ctx.leases.leaseMs, {
    onLeaseLost: (error) => controller.abort(error),
    onFailure: (error) => controller.abort(error),
  });
  const heartbeat = keepLease(ctx, runId, controller, writer);
  const unregister = ctx.onCancel(runId, (reason) => controller.abort(new RunCancelled(reason)));
  let local: SqliteRunStore | undefined;
  try {
    const content = await deploymentContent(ctx.pool, row.deployment_id ?? '', row.version ?? undefined);
    const sourceId = row.request.kind === 'replay' ? row.request.sourceRunId : undefined;
    local = await loadWorkingCopy(ctx.pool, [...(sourceId ? [sourceId] : []), ...(row.last_seq > 0 ? [runId] : [])]);
    const store = new PostgresRunStore(local, writer);
    const workspace = deploymentWorkspace(ctx.dataDir, content);
    const runtime = createRuntime({
      workspace,
      store,
      settings: content.settings,
      env: ctx.env,
      trust: PUBLISHED,
      // Nobody waits at a worker: a crew's task review or tool approval pauses the run (`waiting`) until
      // POST /v1/runs/{id}/resume answers it. A flow's crews still run unattended (reviews accept,
      // approvals deny): a flow waits for people through its human_feedback steps.
      human: row.kind === 'crew' ? pausingHuman : unattendedHuman,
      forceProfile: row.request.kind === 'start' ? row.request.profile : undefined,
      memory: usesMemory(content) ? await ctx.memory(content) : undefined,
      offline: row.request.kind === 'replay' && row.request.offline && sourceId ? Recording.fromStore(local, sourceId) : undefined,
    });
    await runSession(runtime, row, store, { file: deploymentDocumentFile(workspace, content), document: content.document }, controller.signal);
    await writer.drain();
    return 'advanced';
  } catch (error) {
    return await afterFailure(ctx, runId, writer, error);
  } finally {
    clearInterval(heartbeat);
    unregister();
    local?.close();
    await ctx.leases.release(runId).catch(() => undefined);
  }
}

/** Starts, forks, resumes or cancels: whichever the run's row says it is at. */
async function runSession(runtime: Runtime, row: TeamRunRow, store: PostgresRunStore, published: { file: string; document: unknown }, signal: AbortSignal): Promise<void> {
  const runId = row.id;
  const request = row.request;
  if (row.last_seq === 0 && request.kind === 'replay') {
    if (request.fromMethodId !== undefined) await runtime.replayFlow(request.sourceRunId, request.fromMethodId, { runId, signal, ...(request.setState ? { state: request.setState } : {}) });
    else await runtime.replay(request.sourceRunId, request.fromTaskId ?? '', { runId, signal, ...(request.setOutput ? { edits: request.setOutput } : {}) });
    return;
  }
  if (row.last_seq === 0) {
    const budget = request.kind === 'start' ? request.budget : undefined;
    const run = { runId, inputs: row.inputs, documentPath: published.file, signal, ...(budget ? { budget } : {}) };
    // Team flows checkpoint after every method, so a worker's death never repeats a completed one.
    if (row.kind === 'flow') await runtime.runFlow({ ...(FlowDocumentSchema.parse(published.document) as FlowDocument), persist: true }, run);
    else await runtime.runCrew(CrewDocumentSchema.parse(published.document), run);
    return;
  }
  if (row.cancel_requested !== null) {
    runtime.cancelStopped(runId, row.cancel_requested);
    return;
  }
  try {
    await runtime.resume(runId, { signal, ...answerFor(row, store), ...(row.resume_request?.budget ? { budget: row.resume_request.budget } : {}) });
  } catch (error) {
    // Stopped at a feedback request before its pause was recorded (the worker died in between): it waits again.
    const pending = pendingOfCheckpoint(currentCheckpoint(store, runId));
    if (!(error instanceof FlowNotResumable) || pending?.kind !== 'feedback') throw error;
    await store.writer.drain();
    await markWaiting(row, store, pending);
  }
}

/** The accepted answer, when the run's checkpoint still waits for exactly that request. */
function answerFor(row: TeamRunRow, store: PostgresRunStore): { feedback?: string; decision?: ToolApprovalDecision } {
  const answer = row.resume_request;
  const pending = pendingOfCheckpoint(currentCheckpoint(store, row.id));
  if (!answer || !pending || pending.kind === 'budget' || pending.requestId !== answer.requestId) return {};
  if (pending.kind === 'feedback') return { feedback: answer.outcome ?? answer.feedback ?? (answer.approve === false ? 'rejected' : '') };
  if (pending.kind === 'tool_approval') return { decision: answer.outcome === 'always' ? 'always' : answer.approve ? 'approve' : 'deny' };
  // A task review: feedback revises the answer; none (or approve) accepts it.
  return { feedback: answer.feedback ?? '' };
}

async function markWaiting(row: TeamRunRow, store: PostgresRunStore, pending: NonNullable<ReturnType<typeof pendingOfCheckpoint>>): Promise<void> {
  store.writer.push({ kind: 'finish', runId: row.id, end: { status: 'paused', tokenUsage: row.token_usage ?? store.getRun(row.id)!.tokenUsage, endedAt: Date.now() }, pending });
  await store.writer.drain();
}

/** A run's checkpoint as it stands: a flow's with the entries appended since it was saved folded in. */
function currentCheckpoint(store: PostgresRunStore, runId: string): unknown {
  const base = store.loadCheckpoint(runId) as { kind?: string } | undefined;
  return base?.kind === 'crew' ? base : loadFlowCheckpoint(store, runId);
}

/** Whether a version's document remembers (so its runs get the deployment's shared memory). */
function usesMemory(content: DeploymentContent): boolean {
  const doc = content.document as { memory?: { enabled?: boolean }; methods?: { body: { type: string; agent?: { memory?: boolean }; learn?: boolean } }[] };
  if (content.kind === 'crew') return doc.memory?.enabled === true;
  return (doc.methods ?? []).some((m) => m.body.type === 'crew' || (m.body.type === 'agent' && m.body.agent?.memory === true) || (m.body.type === 'human_feedback' && m.body.learn === true));
}

/** Renews the lease a third of its time apart; a lost lease or a cancellation asked for stops the run. */
function keepLease(ctx: AdvanceContext, runId: string, controller: AbortController, writer: PostgresWriter): NodeJS.Timeout {
  const timer = setInterval(() => {
    ctx.leases.renew(runId).then(
      (state) => {
        if (!state.held) {
          const lost = new LeaseLost(runId);
          writer.abandon(lost);
          controller.abort(lost);
        } else if (state.cancel !== undefined) controller.abort(new RunCancelled(state.cancel));
      },
      // PostgreSQL is away: the writer waits for it too; the lease is renewed when it is back.
      () => undefined,
    );
  }, Math.max(200, Math.floor(ctx.leases.leaseMs / 3)));
  timer.unref();
  return timer;
}

/**
 * The job stopped before the run recorded its own end: a lost lease (another worker goes on), or an
 * error before the run could open (a stored document that no longer loads…), which fails the run.
 */
async function afterFailure(ctx: AdvanceContext, runId: string, writer: PostgresWriter, error: unknown): Promise<AdvanceOutcome> {
  const drained = await writer.drain().then(
    () => undefined,
    (stop: unknown) => stop,
  );
  if (error instanceof LeaseLost || drained instanceof LeaseLost) {
    const row = await readTeamRun(ctx.pool, runId).catch(() => undefined);
    ctx.log(`run ${runId}: lease lost; ${row ? `it is ${row.status}` : 'another worker continues it'}`);
    return 'lease-lost';
  }
  ctx.log(`run ${runId} failed: ${errorMessage(error)}`);
  await endUnstarted(ctx, runId, 'failed', errorMessage(error));
  return 'advanced';
}

/** Ends a run that has not recorded its end itself, if this worker still holds it. */
async function endUnstarted(ctx: AdvanceContext, runId: string, status: 'failed' | 'cancelled', reason: string): Promise<void> {
  await ctx.pool.query(
    `UPDATE runs SET status = $3, error = $4, ended_at = $5, lease_owner = NULL, lease_until = NULL
     WHERE id = $1 AND lease_owner = $2 AND status IN ('queued', 'running')`,
    [runId, ctx.leases.owner, status, reason, Date.now()],
  );
  await ctx.pool.query("SELECT pg_notify('crewdeck_runs', $1)", [`${runId}:${status}`]);
}
