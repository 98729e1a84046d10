import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RuntimeEvent } from '../../shared/events';
import type { TeamClient } from '../../runtime/team/teamClient';
import type { TeamRunView } from '../../runtime/team/teamRuns';
import { describeResult, runCli, tempDir, type TempWorkspace } from '../cli/cliHarness';
import { sharedServices } from '../support/teamServices';
import { publish, reviewFlow, slowCrew, startInProcessTeam, waitFor, type InProcessTeam } from './teamHarness';

/**
 * The CLI against a team server reads like the CLI on the workspace: `runs list|show|events --server --json`
 * print the shapes the local commands print, `run --server --json` what a local `run --json` prints, and
 * `resume --server` answers a waiting run (feedback, approve). `npm run build` first when running this alone.
 */
let team: InProcessTeam;
let client: TeamClient;
let ws: TempWorkspace;
let env: Record<string, string>;

beforeAll(async () => {
  team = await startInProcessTeam({ workers: 1, concurrency: 4 });
  client = await team.client('deploy');
  env = { CREWDECK_API_KEY: await team.key('deploy') };
  ws = tempDir('crewdeck-team-cli-');
}, 60_000);

afterAll(async () => {
  await team?.stop();
  ws?.remove();
  await (await sharedServices()).stop();
}, 60_000);

async function cliJson<T>(args: string[], withKey = true): Promise<T> {
  const result = await runCli(args, withKey ? { env } : {});
  expect(result.code, describeResult(result)).toBe(0);
  return JSON.parse(result.stdout) as T;
}

const keys = (value: object) => Object.keys(value).sort();

describe('the CLI with --server', () => {
  it('run, runs list, runs show and runs events print what they print for a local run (plus team)', async () => {
    const file = ws.write('shapes.crew.json', slowCrew('shapes', 2, 0));
    const local = await cliJson<Record<string, unknown>>(['run', file, '--json'], false);
    const remote = await cliJson<Record<string, unknown>>(['run', file, '--server', team.url, '--json']);
    expect(remote).toMatchObject({ status: 'completed', output: 'step done', team: { server: team.url, status: 'completed' } });
    expect(keys(remote)).toEqual(keys({ ...local, team: 1 }));
    expect(remote.tasks).toEqual(local.tasks);

    const [localRun] = await cliJson<Record<string, unknown>[]>(['runs', 'list', '--json', '--workspace', ws.dir], false);
    const remoteList = await cliJson<Record<string, unknown>[]>(['runs', 'list', '--server', team.url, '--json']);
    const remoteRun = remoteList.find((r) => r.id === remote.runId)!;
    expect(keys(remoteRun)).toEqual(keys({ ...localRun!, team: 1 }));
    expect(remoteRun).toMatchObject({ kind: 'crew', status: 'completed', documentId: 'shapes', name: 'Crew shapes', documentPath: 'shapes.crew.json' });
    expect(keys(remoteRun.tokenUsage as object)).toEqual(keys(localRun!.tokenUsage as object));

    const localShow = await cliJson<Record<string, unknown>>(['runs', 'show', String(local.runId), '--json', '--workspace', ws.dir], false);
    const remoteShow = await cliJson<Record<string, unknown>>(['runs', 'show', String(remote.runId), '--server', team.url, '--json']);
    expect(keys(remoteShow)).toEqual(keys({ ...localShow, team: 1 }));
    expect((remoteShow.tasks as { taskId: string }[]).map((t) => t.taskId)).toEqual(['step1', 'step2']);
    expect(keys((remoteShow.tasks as object[])[0]!)).toEqual(keys((localShow.tasks as object[])[0]!));

    // Events: one JSON event a line, the same sequence of types as the local run of the same crew.
    const localEvents = (await runCli(['runs', 'events', String(local.runId), '--json', '--workspace', ws.dir])).stdout.trim().split('\n').map((l) => JSON.parse(l) as RuntimeEvent);
    const remoteText = await runCli(['runs', 'events', String(remote.runId), '--server', team.url, '--json'], { env });
    const remoteEvents = remoteText.stdout.trim().split('\n').map((l) => JSON.parse(l) as RuntimeEvent);
    expect(remoteEvents.map((e) => e.type)).toEqual(localEvents.map((e) => e.type));
    expect(keys(remoteEvents[0]!)).toEqual(keys(localEvents[0]!));

    const text = await runCli(['runs', 'show', String(remote.runId), '--server', team.url], { env });
    expect(text.stdout).toContain(`Run ${String(remote.runId)} · completed · Crew shapes`);
    expect(text.stdout).toContain('✓ task step2');
  }, 120_000);

  it('batches list and show --server print the shapes the workspace’s batches print', async () => {
    const file = ws.write('rows.crew.json', slowCrew('rows', 1, 0));
    const rows = ws.write('rows.csv', 'topic\nalpha\nbeta\n');
    const local = await runCli(['run', file, '--inputs-file', rows, '--json']);
    expect(local.code, describeResult(local)).toBe(0);
    const { batches: [localSummary] } = await cliJson<{ batches: Record<string, unknown>[] }>(['batches', 'list', '--json', '--workspace', ws.dir], false);
    const { batch: localBatch } = await cliJson<{ batch: Record<string, unknown> }>(['batches', 'show', String(localSummary!.id), '--json', '--workspace', ws.dir], false);

    await publish(client, slowCrew('rows', 1, 0));
    const { batchId } = await client.request<{ batchId: string }>('POST', '/v1/deployments/rows/batches', { csv: 'topic\nalpha\nbeta\n', concurrency: 2 });
    await waitFor(() => client.request<{ status: string }>('GET', `/v1/batches/${batchId}`), (b) => b.status !== 'running', 'the batch to end');
    const { batches } = await cliJson<{ batches: Record<string, unknown>[] }>(['batches', 'list', '--server', team.url, '--json']);
    const remoteSummary = batches.find((b) => b.id === batchId)!;
    const extras = { batchId: 1, deploymentId: 1, version: 1, team: 1 };
    const { source: _s, ...localSummaryFields } = localSummary!;
    expect(keys(remoteSummary)).toEqual(keys({ ...localSummaryFields, ...extras }));
    expect(remoteSummary.rows).toEqual(localSummary!.rows);
    const { batch } = await cliJson<{ batch: Record<string, unknown> }>(['batches', 'show', batchId, '--server', team.url, '--json']);
    const { source: _s2, ...localBatchFields } = localBatch;
    expect(keys(batch)).toEqual(keys({ ...localBatchFields, ...extras, counts: 1 }));
    expect((batch.rows as { status: string }[]).map((r) => r.status)).toEqual((localBatch.rows as { status: string }[]).map((r) => r.status));
    const text = await runCli(['batches', 'show', batchId, '--server', team.url], { env });
    expect(text.stdout).toContain(`${batchId} completed`);
    expect(text.stdout).toContain('topic=beta');
    const refused = await runCli(['batches', 'resume', batchId, '--server', team.url], { env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('a team batch is never interrupted');
  }, 120_000);

  it('resume --server --feedback answers a flow waiting on the server; its feedback picks the branch', async () => {
    const flow = reviewFlow('cli-review');
    const review = flow.methods[1]!.body as Record<string, unknown>;
    review.llm = { provider: 'scripted', model: 'judge', script: { default: '{"outcome": "approved", "reason": "the reviewer is happy"}' } };
    await publish(client, flow);
    const { runId } = await client.request<{ runId: string }>('POST', '/v1/deployments/cli-review/runs', {});
    await waitFor(() => client.request<TeamRunView>('GET', `/v1/runs/${runId}`), (r) => r.status === 'waiting', 'the flow to wait');

    const shown = await runCli(['runs', 'show', runId, '--server', team.url], { env });
    expect(shown.stdout).toContain('Waiting for an answer: Approve the draft about solar?');
    const resumed = await cliJson<Record<string, unknown>>(['resume', runId, '--server', team.url, '--feedback', 'Looks great, ship it', '--json']);
    expect(resumed).toMatchObject({ runId, status: 'completed', output: 'Published: Draft about solar', state: { review_feedback: 'Looks great, ship it' } });
    const again = await runCli(['resume', runId, '--server', team.url, '--feedback', 'again'], { env });
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('completed; it waits for nothing');
  }, 120_000);

  it('resume --server --approve answers a crew waiting for a tool approval', async () => {
    const solver = { provider: 'scripted', model: 'solver', script: { rules: [{ when: { lastRole: 'tool' }, reply: 'The answer is 4.' }], default: { toolCalls: [{ name: 'calculator', arguments: { expression: '2 + 2' } }] } } };
    await publish(client, {
      kind: 'crew', version: 1, id: 'cli-approval', name: 'Approval', process: 'sequential',
      agents: [{ id: 's', role: 'Solver', goal: 'g', backstory: 'b', llm: solver, tools: [{ tool: 'calculator', requiresApproval: true }] }],
      tasks: [{ id: 'sum', description: 'Add', expectedOutput: 'a number', agentId: 's' }],
    });
    const started = await runCli(['run', 'cli-approval', '--server', team.url], { env });
    expect(started.code, describeResult(started)).toBe(0);
    expect(started.stdout).toContain('Answer with: crewdeck resume');
    expect(started.stdout).toContain('--approve | --deny | --always');
    const runId = /crewdeck resume (\S+)/.exec(started.stdout)![1]!;
    const done = await cliJson<Record<string, unknown>>(['resume', runId, '--server', team.url, '--approve', '--json']);
    expect(done).toMatchObject({ status: 'completed', output: 'The answer is 4.', tasks: [{ taskId: 'sum', raw: 'The answer is 4.' }] });
  }, 120_000);
});
