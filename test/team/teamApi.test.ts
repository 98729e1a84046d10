import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RuntimeEvent } from '../../shared/events';
import { TeamApiError, type TeamClient } from '../../runtime/team/teamClient';
import type { TeamRunView } from '../../runtime/team/teamRuns';
import { verifyWebhook, webhookSecret } from '../../runtime/team/webhooks';
import { sharedServices } from '../support/teamServices';
import { publish, reviewFlow, slowCrew, startInProcessTeam, waitFor, type InProcessTeam } from './teamHarness';

let team: InProcessTeam;
let client: TeamClient;

beforeAll(async () => {
  // Webhooks: the loopback receivers below are allowed by the server's configuration (--webhook-allow
  // 127.0.0.1); `hooks.example.test` "resolves" to loopback without being allowed (no DNS in tests).
  team = await startInProcessTeam({
    workers: 1,
    concurrency: 4,
    webhookAllow: ['127.0.0.1'],
    webhookResolve: async (name) => {
      if (name === 'hooks.example.test') return [{ address: '127.0.0.1', family: 4 }];
      throw Object.assign(new Error(`no test address for ${name}`), { code: 'ENOTFOUND' });
    },
  });
  client = await team.client('deploy');
}, 60_000);

afterAll(async () => {
  await team?.stop();
  await (await sharedServices()).stop();
}, 60_000);

const runView = (id: string) => client.request<TeamRunView>('GET', `/v1/runs/${id}`);
const ended = (r: TeamRunView) => ['completed', 'failed', 'cancelled'].includes(r.status);

async function apiError(promise: Promise<unknown>): Promise<TeamApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TeamApiError);
  return error as TeamApiError;
}

describe('the /v1 API', () => {
  it('refuses a missing or wrong key (401), a key without the scope (403), a key over its rate (429 with Retry-After)', async () => {
    const none = await fetch(`${team.url}/v1/deployments`);
    expect(none.status).toBe(401);
    expect(await none.json()).toMatchObject({ error: { code: 'unauthorized' } });
    const wrong = await fetch(`${team.url}/v1/deployments`, { headers: { authorization: 'Bearer cdk_000000000000_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' } });
    expect(wrong.status).toBe(401);

    const runKey = await team.key('run');
    const forbidden = await fetch(`${team.url}/v1/deployments`, { method: 'POST', headers: { authorization: `Bearer ${runKey}`, 'content-type': 'application/json' }, body: '{}' });
    expect(forbidden.status).toBe(403);
    expect(await forbidden.json()).toMatchObject({ error: { code: 'forbidden' } });

    const slowKey = await team.key('run', 3);
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i < 4; i++) {
      const response = await fetch(`${team.url}/v1/deployments`, { headers: { authorization: `Bearer ${slowKey}` } });
      statuses.push(response.status);
      if (response.status === 429) retryAfter = response.headers.get('retry-after');
      await response.arrayBuffer();
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
  }, 60_000);

  it('answers bad bodies with 400 naming the field, and unknown runs with 404', async () => {
    await publish(client, slowCrew('badbody', 1, 0));
    const bad = await apiError(client.request('POST', '/v1/deployments/badbody/runs', { inputs: {}, webhook: { url: 'ftp://x' } }));
    expect(bad.status).toBe(400);
    expect(bad.field).toBe('webhook.url');
    expect((await apiError(client.request('GET', '/v1/runs/run_nope'))).status).toBe(404);
    expect((await apiError(client.request('POST', '/v1/deployments/nope/runs', {}))).status).toBe(404);
  }, 60_000);

  it('runs a published crew; the same idempotency key returns the same run; events page; the stream resumes with Last-Event-ID', async () => {
    const published = await publish(client, slowCrew('pages', 3, 0));
    expect(published).toMatchObject({ id: 'pages', version: 1 });
    expect(await publish(client, slowCrew('pages', 3, 0))).toMatchObject({ version: 1, created: false });

    const first = await client.request<{ runId: string }>('POST', '/v1/deployments/pages/runs', { inputs: { topic: 'moons' }, idempotencyKey: 'k-1' });
    const again = await client.request<{ runId: string }>('POST', '/v1/deployments/pages/runs', { inputs: { topic: 'moons' }, idempotencyKey: 'k-1' });
    expect(again.runId).toBe(first.runId);
    const other = await client.request<{ runId: string }>('POST', '/v1/deployments/pages/runs', { inputs: { topic: 'moons' }, idempotencyKey: 'k-2' });
    expect(other.runId).not.toBe(first.runId);

    const done = await waitFor(() => runView(first.runId), ended, 'the run to end');
    expect(done).toMatchObject({ status: 'completed', output: 'step done', inputs: { topic: 'moons' }, deploymentId: 'pages', version: 1 });

    const all = await client.request<{ events: RuntimeEvent[]; lastSeq: number; more: boolean }>('GET', `/v1/runs/${first.runId}/events`);
    expect(all.more).toBe(false);
    expect(all.events.map((e) => e.seq)).toEqual(Array.from({ length: all.events.length }, (_, i) => i + 1));
    expect(all.events.filter((e) => e.type === 'task.completed')).toHaveLength(3);
    const page = await client.request<{ events: RuntimeEvent[]; lastSeq: number; more: boolean }>('GET', `/v1/runs/${first.runId}/events?after=2&limit=3`);
    expect(page.events.map((e) => e.seq)).toEqual([3, 4, 5]);
    expect(page).toMatchObject({ lastSeq: 5, more: true });

    // The stream of an ended run: cut after 4 events, then resumed from the last id received.
    const got: RuntimeEvent[] = [];
    for await (const event of client.stream(first.runId)) {
      got.push(event);
      if (got.length === 4) break;
    }
    const response = await fetch(`${team.url}/v1/runs/${first.runId}/stream`, { headers: { authorization: `Bearer ${await team.key('run')}`, 'last-event-id': String(got.at(-1)!.seq) } });
    const text = await response.text();
    const rest = [...text.matchAll(/^id: (\d+)\ndata: (.*)$/gm)].map((m) => JSON.parse(m[2]!) as RuntimeEvent);
    expect(text).toContain('event: end');
    expect([...got, ...rest].map((e) => e.seq)).toEqual(all.events.map((e) => e.seq));
    expect(rest[0]!.seq).toBe(5);
  }, 60_000);

  it('a flow with a person in it: waiting with a requestId; the outcome takes that branch only; a repeated resume gets 409', async () => {
    await publish(client, reviewFlow('review'));
    const { runId } = await client.request<{ runId: string }>('POST', '/v1/deployments/review/runs', {});
    const waiting = await waitFor(() => runView(runId), (r) => r.status === 'waiting', 'the flow to wait');
    expect(waiting.pending).toMatchObject({ kind: 'feedback', prompt: 'Approve the draft about solar?', outcomes: ['approved', 'rejected'], output: 'Draft about solar' });
    const requestId = waiting.pending!.requestId;

    const stale = await apiError(client.request('POST', `/v1/runs/${runId}/resume`, { requestId: 'not-it', outcome: 'approved' }));
    expect(stale.status).toBe(409);
    await client.request('POST', `/v1/runs/${runId}/resume`, { requestId, outcome: 'approved' });
    const repeat = await apiError(client.request('POST', `/v1/runs/${runId}/resume`, { requestId, outcome: 'rejected' }));
    expect(repeat.status).toBe(409);

    const done = await waitFor(() => runView(runId), ended, 'the flow to end');
    expect(done).toMatchObject({ status: 'completed', output: 'Published: Draft about solar' });
    const { events } = await client.request<{ events: RuntimeEvent[] }>('GET', `/v1/runs/${runId}/events`);
    const methods = events.filter((e) => e.type === 'flow.method.completed').map((e) => (e as { methodId: string }).methodId);
    expect(methods).toEqual(['draft', 'review', 'publish']);
    expect(events.filter((e) => e.type === 'human.answered')).toHaveLength(1);
    expect((await apiError(client.request('POST', `/v1/runs/${runId}/resume`, { requestId, outcome: 'approved' }))).status).toBe(409);
  }, 60_000);

  it("a crew's task review over the API: waiting (no worker held), feedback continues the agent, approve completes; a stale requestId gets 409", async () => {
    const writer = { provider: 'scripted', model: 'writer', script: { rules: [{ when: { last: '/shorter/' }, reply: 'Tides: moon.' }], default: 'A long draft about tides and the moon.' } };
    const researcher = { provider: 'scripted', model: 'research', script: { default: 'Facts.' } };
    await publish(client, {
      kind: 'crew', version: 1, id: 'reviewed', name: 'Reviewed', process: 'sequential',
      agents: [{ id: 'r', role: 'Researcher', goal: 'g', backstory: 'b', llm: researcher }, { id: 'w', role: 'Writer', goal: 'g', backstory: 'b', llm: writer }],
      tasks: [{ id: 'research', description: 'Find facts', expectedOutput: 'facts', agentId: 'r' }, { id: 'write', description: 'Write it up', expectedOutput: 'a text', agentId: 'w', humanInput: true }],
    });
    const { runId } = await client.request<{ runId: string }>('POST', '/v1/deployments/reviewed/runs', {});
    const first = await waitFor(() => runView(runId), (r) => r.status === 'waiting', 'the review');
    expect(first.pending).toMatchObject({ kind: 'task_review', taskId: 'write', agentRole: 'Writer', output: 'A long draft about tides and the moon.', prompt: 'Write it up' });
    expect((await team.pool.query('SELECT lease_owner FROM runs WHERE id = $1', [runId])).rows[0]).toEqual({ lease_owner: null });

    const unanswered = await apiError(client.request('POST', `/v1/runs/${runId}/resume`, { requestId: first.pending!.requestId }));
    expect(unanswered).toMatchObject({ status: 400, field: 'feedback' });
    await client.request('POST', `/v1/runs/${runId}/resume`, { requestId: first.pending!.requestId, feedback: 'Make it shorter.' });
    const second = await waitFor(() => runView(runId), (r) => r.status === 'waiting' && r.pending?.requestId !== first.pending!.requestId, 'the second review');
    expect(second.pending).toMatchObject({ kind: 'task_review', output: 'Tides: moon.' });
    expect((await apiError(client.request('POST', `/v1/runs/${runId}/resume`, { requestId: first.pending!.requestId, approve: true }))).status).toBe(409);
    await client.request('POST', `/v1/runs/${runId}/resume`, { requestId: second.pending!.requestId, approve: true });
    const done = await waitFor(() => runView(runId), ended, 'the crew to end');
    expect(done).toMatchObject({ status: 'completed', output: 'Tides: moon.' });

    const { events } = await client.request<{ events: RuntimeEvent[] }>('GET', `/v1/runs/${runId}/events`);
    const calls = events.filter((e): e is Extract<RuntimeEvent, { type: 'llm.started' }> => e.type === 'llm.started');
    expect(calls.filter((e) => e.agentRole === 'Researcher')).toHaveLength(1);
    expect(calls.filter((e) => e.agentRole === 'Writer')).toHaveLength(2);
    expect(events.filter((e) => e.type === 'task.completed').map((e) => (e as { taskId: string }).taskId)).toEqual(['research', 'write']);
    expect(events.filter((e) => e.type === 'run.paused').map((e) => (e as { reason?: string }).reason)).toEqual(['human', 'human']);
  }, 60_000);

  it("a crew's tool approval over the API: waiting before the call; approve runs that call on resume, once", async () => {
    const solver = { provider: 'scripted', model: 'solver', script: { rules: [{ when: { lastRole: 'tool' }, reply: 'The answer is 4.' }], default: { toolCalls: [{ name: 'calculator', arguments: { expression: '2 + 2' } }] } } };
    await publish(client, {
      kind: 'crew', version: 1, id: 'approval', name: 'Approval', process: 'sequential',
      agents: [{ id: 's', role: 'Solver', goal: 'g', backstory: 'b', llm: solver, tools: [{ tool: 'calculator', requiresApproval: true }] }],
      tasks: [{ id: 'sum', description: 'Add two and two', expectedOutput: 'a number', agentId: 's' }],
    });
    const { runId } = await client.request<{ runId: string }>('POST', '/v1/deployments/approval/runs', {});
    const waiting = await waitFor(() => runView(runId), (r) => r.status === 'waiting', 'the approval');
    expect(waiting.pending).toMatchObject({ kind: 'tool_approval', tool: 'calculator', args: { expression: '2 + 2' }, agentRole: 'Solver', taskId: 'sum' });
    const wrong = await apiError(client.request('POST', `/v1/runs/${runId}/resume`, { requestId: waiting.pending!.requestId, feedback: 'fine' }));
    expect(wrong).toMatchObject({ status: 400, field: 'approve' });
    await client.request('POST', `/v1/runs/${runId}/resume`, { requestId: waiting.pending!.requestId, approve: true });
    const done = await waitFor(() => runView(runId), ended, 'the crew to end');
    expect(done).toMatchObject({ status: 'completed', output: 'The answer is 4.' });
    const { events } = await client.request<{ events: RuntimeEvent[] }>('GET', `/v1/runs/${runId}/events`);
    expect(events.filter((e) => e.type === 'tool.completed')).toHaveLength(1);
    expect(events.filter((e) => e.type === 'llm.started')).toHaveLength(2);
    expect(events.find((e) => e.type === 'human.answered')).toMatchObject({ requestId: waiting.pending!.requestId, decision: 'approve' });
  }, 60_000);

  it('webhooks: every delivery is signed, each event arrives once per id and in order, across a resume', async () => {
    const secret = await webhookSecret(team.pool);
    const received: { id: string; seq: number; type: string; valid: boolean }[] = [];
    let failFirst = true;
    const receiver: Server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString();
        // The first delivery fails: it must come again (at least once), and only once after success.
        if (failFirst) {
          failFirst = false;
          res.writeHead(503).end();
          return;
        }
        const parsed = JSON.parse(body) as { id: string; seq: number; type: string };
        received.push({ id: parsed.id, seq: parsed.seq, type: parsed.type, valid: verifyWebhook(secret, req.headers['x-crewdeck-signature'] as string, body) });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
    try {
      await publish(client, reviewFlow('hooked'));
      const { runId } = await client.request<{ runId: string }>('POST', '/v1/deployments/hooked/runs', { webhook: { url } });
      const waiting = await waitFor(() => runView(runId), (r) => r.status === 'waiting', 'the flow to wait');
      await client.request('POST', `/v1/runs/${runId}/resume`, { requestId: waiting.pending!.requestId, outcome: 'rejected' });
      const done = await waitFor(() => runView(runId), ended, 'the flow to end');
      await waitFor(async () => received.length, (n) => n >= done.lastSeq, 'every event to be delivered');
      expect(received.every((r) => r.valid)).toBe(true);
      expect(received.map((r) => r.seq)).toEqual(Array.from({ length: done.lastSeq }, (_, i) => i + 1));
      expect(new Set(received.map((r) => r.id)).size).toBe(received.length);
      expect(received[0]!.id).toBe(`${runId}:1`);
      expect(received.map((r) => r.type)).toContain('run.resumed');
      expect(received.at(-1)!.type).toBe('run.completed');
      expect(verifyWebhook(secret, 't=1,v1=00', '{}')).toBe(false);
    } finally {
      receiver.close();
    }
  }, 60_000);

  it('webhook URLs: a refused address is a 400 naming webhook.url; a name resolving to one is refused at delivery and stops', async () => {
    await publish(client, slowCrew('guarded', 1, 0));
    for (const url of ['http://localhost:9/hook', 'http://[::1]:9/hook', 'http://169.254.169.254/latest/meta-data', 'http://10.0.0.5/hook']) {
      const refused = await apiError(client.request('POST', '/v1/deployments/guarded/runs', { webhook: { url } }));
      expect(refused.status, url).toBe(400);
      expect(refused.field).toBe('webhook.url');
      expect(refused.message).toContain('--webhook-allow');
      const batch = await apiError(client.request('POST', '/v1/deployments/guarded/batches', { rows: [{}], webhook: { url } }));
      expect(batch.field).toBe('webhook.url');
    }

    let hits = 0;
    const receiver: Server = createServer((req, res) => {
      hits += 1;
      req.resume();
      res.writeHead(204).end();
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    try {
      const port = (receiver.address() as { port: number }).port;
      const { runId } = await client.request<{ runId: string }>('POST', '/v1/deployments/guarded/runs', { webhook: { url: `http://hooks.example.test:${port}/hook` } });
      // Accepted (a name is checked when it is resolved); at delivery it resolves to loopback: refused, and the webhook stops.
      const stopped = await waitFor(() => runView(runId), (r) => r.webhookError !== undefined && ended(r), 'the webhook to be refused');
      expect(stopped.status).toBe('completed');
      expect(stopped.webhookError).toContain('hooks.example.test (127.0.0.1) is a loopback address');
      expect(hits).toBe(0);
    } finally {
      receiver.close();
    }
  }, 60_000);

  it('cancel reaches the worker holding a running run: it stops there and ends cancelled', async () => {
    await publish(client, slowCrew('stoppable', 8, 300));
    const { runId } = await client.request<{ runId: string }>('POST', '/v1/deployments/stoppable/runs', {});
    await waitFor(async () => (await client.request<{ events: RuntimeEvent[] }>('GET', `/v1/runs/${runId}/events`)).events.some((e) => e.type === 'task.completed'), Boolean, 'a task to complete');
    const answer = await client.request<{ status: string }>('POST', `/v1/runs/${runId}/cancel`, { reason: 'not needed any more' });
    expect(answer.status).toBe('running');
    const done = await waitFor(() => runView(runId), ended, 'the run to stop');
    expect(done.status).toBe('cancelled');
    const { events } = await client.request<{ events: RuntimeEvent[] }>('GET', `/v1/runs/${runId}/events`);
    expect(events.at(-1)).toMatchObject({ type: 'run.cancelled', reason: 'not needed any more' });
    expect(events.filter((e) => e.type === 'task.completed').length).toBeLessThan(8);
    expect((await apiError(client.request('POST', `/v1/runs/${runId}/cancel`, {}))).status).toBe(409);
  }, 60_000);
});

describe('the team store', () => {
  it('a writer whose lease was taken over commits nothing more, and says so', async () => {
    const { PostgresWriter } = await import('../../runtime/store/postgresRunStore');
    const { LeaseLost } = await import('../../runtime/store/postgresErrors');
    await team.pool.query(`INSERT INTO runs (id, kind, document_id, name, status, inputs, created_at, request, lease_owner, lease_until) VALUES ('fenced', 'crew', 'd', 'n', 'running', '{}', 0, '{"kind":"start"}', 'A', now() + interval '1 minute')`);
    const lost: unknown[] = [];
    const writer = new PostgresWriter(team.pool, 'fenced', 'A', 60_000, { onLeaseLost: (e) => lost.push(e), onFailure: (e) => lost.push(e) });
    const event = (seq: number) => ({ type: 'task.started', runId: 'fenced', seq, ts: Date.now(), spanId: `s${seq}`, taskId: 't', agentRole: 'r' }) as unknown as RuntimeEvent;
    writer.push({ kind: 'events', runId: 'fenced', events: [event(1), event(2)] });
    await writer.drain();
    // Another worker takes the run over (A's lease ran out while it was paused or cut off).
    await team.pool.query("UPDATE runs SET lease_owner = 'B' WHERE id = 'fenced'");
    writer.push({ kind: 'events', runId: 'fenced', events: [event(3)] });
    await expect(writer.drain()).rejects.toBeInstanceOf(LeaseLost);
    expect(lost).toHaveLength(1);
    const stored = await team.pool.query<{ seq: number }>("SELECT seq FROM events WHERE run_id = 'fenced' ORDER BY seq");
    expect(stored.rows.map((r) => r.seq)).toEqual([1, 2]);
    expect((await team.pool.query<{ last_seq: number }>("SELECT last_seq FROM runs WHERE id = 'fenced'")).rows[0]!.last_seq).toBe(2);
  }, 60_000);
});
