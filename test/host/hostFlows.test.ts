import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RuntimeEvent } from '../../shared/events';
import type { HostPush } from '../../shared/host-api';
import { createHostService } from '../../runtime/host/createHostService';
import type { HostService } from '../../runtime/host/hostService';

let workspace: string | undefined;
const hosts: HostService[] = [];
afterEach(async () => {
  for (const h of hosts.splice(0)) await h.close();
  if (workspace) rmSync(workspace, { recursive: true, force: true });
});

function open(dir: string) {
  const host = createHostService({ workspace: dir, transport: 'websocket', env: {} });
  const pushes: HostPush[] = [];
  host.subscribe((p) => pushes.push(p));
  hosts.push(host);
  const call = async (channel: string, request: unknown = {}) => {
    const result = await host.handle(channel, request);
    if (!result.ok) throw new Error(`${channel}: ${result.error.code}: ${result.error.message}`);
    return result.response as any;
  };
  const events = () => pushes.flatMap((p) => (p.kind === 'event' ? [p.event] : []));
  const until = async (type: RuntimeEvent['type']) => {
    const started = Date.now();
    while (!events().some((e) => e.type === type)) {
      if (Date.now() - started > 10_000) throw new Error(`no ${type}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  return { host, call, events, until, pushes };
}

describe('flows through the host API', () => {
  it('runs.start runs a flow to its pause; after a restart of the host, runs.resume finishes it on the chosen branch', async () => {
    workspace = mkdtempSync(join(tmpdir(), 'crewdeck-hostflow-'));
    writeFileSync(
      join(workspace, 'gate.flow.json'),
      JSON.stringify({
        kind: 'flow',
        version: 1,
        id: 'gate',
        name: 'Gate',
        methods: [
          { id: 'ask', name: 'ask', trigger: { start: true }, routes: ['go', 'stop'], body: { type: 'human_feedback', message: 'Go on?' } },
          { id: 'went', name: 'went', trigger: { listen: { route: 'go' } }, body: { type: 'script', code: 'return "went on";' } },
          { id: 'stopped', name: 'stopped', trigger: { listen: { route: 'stop' } }, body: { type: 'script', code: 'return "stopped";' } },
        ],
      }),
    );
    const first = open(workspace);
    const created = await first.call('documents.create', { kind: 'flow', name: 'Second flow' });
    expect(created.path).toBe('second-flow.flow.json');
    // Empty, as a new crew is: the first method dropped from the palette starts it.
    expect((await first.call('documents.read', { path: created.path })).problems).toEqual([{ path: 'methods', message: 'a flow needs at least one method' }]);

    const { runId } = await first.call('runs.start', { path: 'gate.flow.json', inputs: {} });
    await first.until('run.paused');
    const requested = first.events().find((e) => e.type === 'human.requested');
    expect(requested).toMatchObject({ kind: 'flow_feedback', prompt: 'Go on?', outcomes: ['go', 'stop'] });
    expect((await first.call('runs.list', {})).runs[0]).toMatchObject({ id: runId, kind: 'flow', status: 'paused' });
    await first.host.close();
    hosts.splice(0);

    const second = open(workspace);
    expect((await second.call('runs.list', {})).runs[0].status).toBe('paused');
    const resumed = await second.call('runs.resume', { runId, feedback: 'stop' });
    expect(resumed.runId).toBe(runId);
    await second.until('run.completed');
    const run = await second.call('runs.get', { runId });
    expect(run.run).toMatchObject({ status: 'completed', output: 'stopped' });
    const again = await second.host.handle('runs.resume', { runId, feedback: 'go' });
    expect(again).toMatchObject({ ok: false, error: { code: 'bad_input' } });
    if (!again.ok) expect(again.error.message).toContain('is completed; only paused or interrupted flows can be resumed');
  });
  it('two runs.resume calls at once: one resumes the paused flow, the other is refused, and the answered method completes once', async () => {
    workspace = mkdtempSync(join(tmpdir(), 'crewdeck-hostflow-'));
    writeFileSync(
      join(workspace, 'ask.flow.json'),
      JSON.stringify({
        kind: 'flow',
        version: 1,
        id: 'ask',
        name: 'Ask',
        methods: [
          { id: 'ask', name: 'ask', trigger: { start: true }, body: { type: 'human_feedback', message: 'Go on?' } },
          { id: 'went', name: 'went', trigger: { listen: 'ask' }, body: { type: 'script', code: 'return "went on";' } },
        ],
      }),
    );
    const app = open(workspace);
    const { runId } = await app.call('runs.start', { path: 'ask.flow.json', inputs: {} });
    await app.until('run.paused');
    const [a, b] = await Promise.all([app.host.handle('runs.resume', { runId, feedback: 'yes' }), app.host.handle('runs.resume', { runId, feedback: 'no' })]);
    expect([a.ok, b.ok].sort()).toEqual([false, true]);
    const refused = a.ok ? b : a;
    if (!refused.ok) expect(refused.error.message).toContain('is running; only paused or interrupted flows can be resumed');
    await app.until('run.completed');
    expect((await app.call('runs.get', { runId })).run).toMatchObject({ status: 'completed', output: 'went on' });
    // Closing the host waits until every run it still holds has recorded its end (a second resume that
    // slipped in would be one of them, and would end cancelled): after it, nothing more can be pushed.
    hosts.splice(hosts.indexOf(app.host), 1);
    await app.host.close();
    const ended = app.events().filter((e) => e.type === 'run.completed' || e.type === 'run.failed' || e.type === 'run.cancelled');
    expect(ended.map((e) => e.type)).toEqual(['run.completed']);
    expect(app.events().filter((e) => e.type === 'flow.method.completed' && e.methodId === 'ask')).toHaveLength(1);
  });

  it('runs.cancel ends a paused flow for good: cancelled, out of reach of resume, the event pushed', async () => {
    workspace = mkdtempSync(join(tmpdir(), 'crewdeck-hostflow-'));
    writeFileSync(
      join(workspace, 'ask.flow.json'),
      JSON.stringify({
        kind: 'flow',
        version: 1,
        id: 'ask',
        name: 'Ask',
        methods: [{ id: 'ask', name: 'ask', trigger: { start: true }, body: { type: 'human_feedback', message: 'Go on?' } }],
      }),
    );
    const first = open(workspace);
    const { runId } = await first.call('runs.start', { path: 'ask.flow.json', inputs: {} });
    await first.until('run.paused');
    await first.host.close();
    hosts.splice(0);

    // After a restart nothing runs it: the paused run is stopped from its stored state.
    const second = open(workspace);
    expect(await second.call('runs.cancel', { runId })).toEqual({ cancelled: true });
    expect(second.events().find((e) => e.type === 'run.cancelled')).toMatchObject({ runId, reason: 'cancelled from the app while it waited for feedback' });
    expect((await second.call('runs.get', { runId })).run.status).toBe('cancelled');
    expect(await second.call('runs.cancel', { runId })).toEqual({ cancelled: false });
    const resume = await second.host.handle('runs.resume', { runId, feedback: 'yes' });
    expect(resume).toMatchObject({ ok: false, error: { code: 'bad_input' } });
    const stored = (await second.call('runs.events', { runId })).events as RuntimeEvent[];
    expect(stored.at(-1)).toMatchObject({ type: 'run.cancelled', spanId: stored[0]!.spanId });
    // seq stays gap-free across the sessions
    expect(stored.map((e) => e.seq)).toEqual(stored.map((_, i) => i + 1));
  });
});

