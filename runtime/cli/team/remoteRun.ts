import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { collectDeployment } from '../../team/deploymentBundle';
import type { TeamClient } from '../../team/teamClient';
import type { TeamRunView } from '../../team/teamRuns';
import { teamRunResult } from '../../team/teamRunShape';
import type { StoredTaskOutput } from '../../store/types';
import { BUDGET_OPTIONS, parseBudgetOptions } from '../budgetOptions';
import { formatUsageLine } from '../format';
import { LiveTree } from '../liveTree';
import { parseInputs, parseOptions } from '../options';
import { colorFor, createStyle, type Style } from '../style';
import { EXIT, UsageError } from '../usage';
import { teamClientFor } from './teamCliClient';
import { reportTeamFailure } from './teamFailure';

/**
 * `crewdeck run <file|deployment> --server URL`: a file is published first (an unchanged one keeps its
 * version), then the run starts on the team server and its events stream into the live tree until it
 * ends or waits. `--detach` prints the run id and returns at once.
 */
export async function remoteRunCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseOptions(args, {
    server: { type: 'string' },
    input: { type: 'string', multiple: true, short: 'i' },
    inputs: { type: 'string' },
    model: { type: 'string' },
    workspace: { type: 'string', short: 'w' },
    json: { type: 'boolean', default: false },
    detach: { type: 'boolean', default: false },
    ...BUDGET_OPTIONS,
  });
  if (positionals.length !== 1) throw new UsageError('run --server needs exactly one crew or flow file, or a deployment id');
  const client = teamClientFor(values.server);
  const json = values.json ?? false;
  const inputs = parseInputs(values.input, values.inputs);
  const budget = parseBudgetOptions(values);
  try {
    let deploymentId = positionals[0]!;
    const file = resolve(deploymentId);
    if (existsSync(file)) {
      const published = await client.request<{ id: string }>('POST', '/v1/deployments', collectDeployment(values.workspace ?? dirname(file), file));
      deploymentId = published.id;
    }
    const started = await client.request<{ runId: string }>('POST', `/v1/deployments/${encodeURIComponent(deploymentId)}/runs`, { inputs, ...(values.model ? { profile: values.model } : {}), ...(budget ? { budget } : {}) });
    if (values.detach) {
      process.stdout.write(json ? `${JSON.stringify({ runId: started.runId, status: 'queued' })}\n` : `Queued ${started.runId} on ${client.baseUrl}\n`);
      return EXIT.ok;
    }
    return await follow(client, started.runId, 0, json);
  } catch (error) {
    return reportTeamFailure(error, json);
  }
}

/**
 * `crewdeck resume <runId> --server URL [--feedback TEXT | --outcome NAME | --approve | --deny | --always]
 * [--max-tokens N] [--max-cost X]`: answers what the run waits for (a flow's feedback, a crew's task review
 * or tool approval, a higher budget), then follows it as `run --server` does.
 */
export async function remoteResumeCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseOptions(args, {
    server: { type: 'string' },
    feedback: { type: 'string' },
    outcome: { type: 'string' },
    approve: { type: 'boolean', default: false },
    deny: { type: 'boolean', default: false },
    always: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
    ...BUDGET_OPTIONS,
  });
  if (positionals.length !== 1) throw new UsageError('resume needs exactly one run id');
  const decisions = (['approve', 'deny', 'always'] as const).filter((d) => values[d]);
  if (decisions.length > 1) throw new UsageError(`give one of --approve, --deny or --always, not ${decisions.map((d) => `--${d}`).join(' and ')}`);
  const client = teamClientFor(values.server);
  const json = values.json ?? false;
  const budget = parseBudgetOptions(values);
  const runId = positionals[0]!;
  try {
    const run = await client.request<TeamRunView>('GET', `/v1/runs/${encodeURIComponent(runId)}`);
    if (!run.pending) throw new UsageError(`run ${runId} is ${run.status}; it waits for nothing`);
    await client.request('POST', `/v1/runs/${encodeURIComponent(runId)}/resume`, {
      requestId: run.pending.requestId,
      ...(values.feedback !== undefined ? { feedback: values.feedback } : {}),
      ...(values.outcome !== undefined ? { outcome: values.outcome } : {}),
      ...(decisions[0] === 'approve' ? { approve: true } : decisions[0] === 'deny' ? { approve: false } : decisions[0] === 'always' ? { approve: true, outcome: 'always' } : {}),
      ...(budget?.maxTokens ? { maxTokens: budget.maxTokens } : {}),
      ...(budget?.maxCostUsd ? { maxCostUsd: budget.maxCostUsd } : {}),
    });
    return await follow(client, runId, run.lastSeq, json);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    return reportTeamFailure(error, json);
  }
}

/** Streams the run's events into the live tree until it ends or stops to wait; prints the result. */
async function follow(client: TeamClient, runId: string, after: number, json: boolean): Promise<number> {
  const style = createStyle(!json && colorFor(process.stdout));
  const tree = new LiveTree({ out: process.stdout, style, spinner: !json && Boolean(process.stdout.isTTY) });
  const controller = new AbortController();
  const onSigint = () => {
    process.stderr.write(`\nCancelling ${runId} on the team server…\n`);
    void client.request('POST', `/v1/runs/${encodeURIComponent(runId)}/cancel`, { reason: 'cancelled from the terminal' }).catch(() => controller.abort(new Error('cancelled from the terminal')));
  };
  process.on('SIGINT', onSigint);
  if (!json) tree.start();
  try {
    for await (const event of client.stream(runId, { after, signal: controller.signal })) {
      if (!json) tree.handle(event);
      if (event.type === 'run.paused') break;
    }
  } finally {
    tree.stop();
    process.off('SIGINT', onSigint);
  }
  const run = await client.request<TeamRunView & { tasks?: StoredTaskOutput[] }>('GET', `/v1/runs/${encodeURIComponent(runId)}?include=tasks`);
  printRemoteResult(run, json, style, client.baseUrl);
  return run.status === 'failed' || run.status === 'cancelled' ? EXIT.runFailed : EXIT.ok;
}

function printRemoteResult(run: TeamRunView & { tasks?: StoredTaskOutput[] }, json: boolean, style: Style, server: string): void {
  if (json) {
    // What the local `run --json` prints for the run it ran (with `team`: the server and its status there).
    process.stdout.write(`${JSON.stringify(teamRunResult(run, server))}\n`);
    return;
  }
  const usage = run.usage as Parameters<typeof formatUsageLine>[0];
  if (run.status === 'completed') {
    process.stdout.write(`\n${style.bold('Output')}\n${run.output ?? ''}\n\n${style.dim(`run ${run.runId} on ${server} · ${formatUsageLine(usage)}`)}\n`);
  } else if (run.pending) {
    process.stdout.write(`\n${style.bold(run.status === 'waiting' ? 'Waiting for an answer' : 'Paused')}: ${run.pending.prompt}\n`);
    if (run.pending.output) process.stdout.write(`\n${style.dim('Under review:')}\n${run.pending.output}\n`);
    if (run.pending.outcomes) process.stdout.write(`\n${style.dim(`Outcomes: ${run.pending.outcomes.join(', ')}`)}\n`);
    if (run.pending.tool) process.stdout.write(`\n${style.dim(`${run.pending.tool} ${JSON.stringify(run.pending.args)}`)}\n`);
    process.stdout.write(`\nAnswer with: crewdeck resume ${run.runId} --server ${server} ${answerHint(run.pending)}\n`);
  } else {
    process.stdout.write(`\n${style.red(run.status === 'cancelled' ? 'Run cancelled' : `Run ${run.status}`)}: ${run.error ?? ''}\n`);
  }
}

function answerHint(pending: NonNullable<TeamRunView['pending']>): string {
  if (pending.kind === 'budget') return '--max-tokens N';
  if (pending.kind === 'tool_approval') return '--approve | --deny | --always';
  if (pending.kind === 'task_review') return '--feedback "…" (or --approve to accept)';
  return pending.outcomes ? '--outcome NAME (or --feedback "…")' : '--feedback "…"';
}
