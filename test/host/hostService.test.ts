import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RuntimeEvent } from '../../shared/events';
import type { HostPush } from '../../shared/host-api';
import { createHostService } from '../../runtime/host/createHostService';
import type { HostService } from '../../runtime/host/hostService';
import { examplesDir } from '../cli/cliHarness';

let workspace: string;
let host: HostService;
let pushes: HostPush[];

beforeEach(() => {
  workspace = mkdtempSync(join(tmpdir(), 'crewdeck-host-'));
  cpSync(examplesDir, workspace, { recursive: true });
  host = createHostService({ workspace, transport: 'websocket', env: {} });
  pushes = [];
  host.subscribe((p) => pushes.push(p));
});

afterEach(async () => {
  await host.close();
  rmSync(workspace, { recursive: true, force: true });
});

async function call(channel: string, request: unknown = {}) {
  const result = await host.handle(channel, request);
  if (!result.ok) throw new Error(`${channel}: ${result.error.code}: ${result.error.message}`);
  return result.response as any;
}

function eventsOf(runId: string): RuntimeEvent[] {
  return pushes.flatMap((p) => (p.kind === 'event' && p.event.runId === runId ? [p.event] : []));
}

async function untilRunEnds(runId: string, timeoutMs = 10_000): Promise<RuntimeEvent> {
  const started = Date.now();
  for (;;) {
    const end = eventsOf(runId).find((e) => e.type === 'run.completed' || e.type === 'run.failed' || e.type === 'run.cancelled');
    if (end) return end;
    if (Date.now() - started > timeoutMs) throw new Error(`run ${runId} did not end`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function until<T>(probe: () => T | undefined, timeoutMs = 10_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() - started > timeoutMs) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}

const reviewCrew = {
  kind: 'crew',
  version: 1,
  id: 'review',
  name: 'Review',
  agents: [
    {
      id: 'writer',
      role: 'Writer',
      goal: 'Write',
      llm: {
        provider: 'scripted',
        model: 'demo',
        script: {
          rules: [
            { when: { last: 'make it shorter' }, reply: 'Short.' },
            { when: { system: 'You are Writer.' }, reply: 'A long first draft.' },
          ],
        },
      },
      tools: [{ tool: 'current_time', requiresApproval: true }],
    },
  ],
  tasks: [{ id: 'draft', description: 'Write a draft', expectedOutput: 'A draft', agentId: 'writer', humanInput: true }],
};

describe('HostService: requests are validated on arrival', () => {
  it('refuses unknown channels and malformed requests with the field at fault', async () => {
    const unknown = await host.handle('fs.readAnything', { path: '/etc/passwd' });
    expect(unknown).toMatchObject({ ok: false, error: { code: 'unknown_channel' } });

    const traversal = await host.handle('documents.read', { path: '../outside.crew.json' });
    expect(traversal.ok).toBe(false);
    if (!traversal.ok) {
      expect(traversal.error.code).toBe('invalid_request');
      expect(traversal.error.problems?.[0]).toMatchObject({ path: 'path' });
      expect(traversal.error.message).toContain('..');
    }

    const absolute = await host.handle('documents.save', { path: '/tmp/x.crew.json', document: {} });
    expect(absolute).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    const internal = await host.handle('documents.save', { path: '.crewdeck/x.crew.json', document: {} });
    expect(internal).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    for (const path of ['.CrewDeck/x.crew.json', '.crewdeck./x.crew.json', 'a/../b.crew.json', 'x.crew.json ', 'notes.txt']) {
      expect(await host.handle('documents.save', { path, document: {} }), path).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    }
    for (const document of [null, 'text', [1, 2], undefined]) {
      expect(await host.handle('documents.save', { path: 'x.crew.json', document }), String(document)).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    }
    expect(existsSync(join(workspace, 'x.crew.json'))).toBe(false);
    // secrets.set takes an allowlist of key names (issue 26): what a denylist let through is refused too.
    for (const name of ['NODE_OPTIONS', 'LD_PRELOAD', 'PATH', 'OPENAI_BASE_URL', 'HTTPS_PROXY', 'ELECTRON_RUN_AS_NODE', 'not a name', 'BASH_ENV', 'PYTHONPATH', 'GIT_SSH_COMMAND', 'PYTHONSTARTUP', 'openai_api_key']) {
      expect(await host.handle('secrets.set', { name, value: 'x' }), name).toMatchObject({ ok: false, error: { code: 'invalid_request', message: expect.stringContaining('is not a key name the app uses') } });
    }
    // The app's names and key-shaped names pass the contract (browser mode then says to use the shell).
    for (const name of ['OPENAI_API_KEY', 'OPENROUTER_API_KEY', 'SERPER_API_KEY', 'MY_LLM_KEY', 'CORP_GATEWAY_TOKEN']) {
      expect(await host.handle('secrets.set', { name, value: 'x' }), name).toMatchObject({ ok: false, error: { code: 'bad_input', message: expect.stringContaining(`set ${name} before starting crewdeck serve`) } });
    }
    const extra = await host.handle('runs.cancel', { runId: 'run_1', sneaky: true });
    expect(extra).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    expect(existsSync('/tmp/x.crew.json') && readFileSync('/tmp/x.crew.json', 'utf8') === '{}\n').toBe(false);
  });
});

describe('HostService: documents', () => {
  it('lists, creates, saves (even invalid), renames and trashes documents', async () => {
    const { documents } = await call('documents.list');
    expect(documents.map((d: { path: string }) => d.path)).toEqual(['feedback-loop.flow.json', 'product-launch.crew.json', 'research-brief.crew.json']);
    expect(documents[0]).toMatchObject({ kind: 'flow', id: 'feedback-loop', problemCount: 0 });
    expect(documents[2]).toMatchObject({ kind: 'crew', id: 'research-brief', name: 'Research brief', problemCount: 0 });

    const created = await call('documents.create', { kind: 'crew', name: 'My New Crew!' });
    expect(created.path).toBe('my-new-crew.crew.json');
    const again = await call('documents.create', { kind: 'crew', name: 'My New Crew!' });
    expect(again.path).toBe('my-new-crew-2.crew.json');
    expect(pushes.some((p) => p.kind === 'documents.changed')).toBe(true);

    const read = await call('documents.read', { path: created.path });
    expect(read.problems.map((p: { path: string }) => p.path)).toEqual(['agents', 'tasks']);

    const invalid = { ...reviewCrew, tasks: [{ ...reviewCrew.tasks[0], agentId: 'nobody' }] };
    const saved = await call('documents.save', { path: created.path, document: invalid });
    expect(saved.problems).toEqual([{ path: 'tasks.0.agentId', message: 'no agent with id "nobody"' }]);
    expect(JSON.parse(readFileSync(join(workspace, created.path), 'utf8'))).toEqual(invalid);

    await call('documents.rename', { path: created.path, newPath: 'crews/renamed.crew.json' });
    expect(existsSync(join(workspace, 'crews/renamed.crew.json'))).toBe(true);
    const clash = await host.handle('documents.rename', { path: again.path, newPath: 'crews/renamed.crew.json' });
    expect(clash).toMatchObject({ ok: false, error: { code: 'conflict' } });

    await call('documents.delete', { path: 'crews/renamed.crew.json' });
    expect(existsSync(join(workspace, 'crews/renamed.crew.json'))).toBe(false);
    expect(readdirSync(join(workspace, '.crewdeck/trash')).some((f) => f.endsWith('crews__renamed.crew.json'))).toBe(true);
  });

  it('refuses documents reached through a symbolic link that leaves the workspace or enters .crewdeck/', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'crewdeck-outside-'));
    try {
      writeFileSync(join(outside, 'secret.txt'), 'aws_secret_access_key = hunter2');
      symlinkSync(join(outside, 'secret.txt'), join(workspace, 'notes.crew.json'));
      symlinkSync(outside, join(workspace, 'linked'));
      mkdirSync(join(workspace, '.crewdeck'), { recursive: true });
      symlinkSync(join(workspace, '.crewdeck'), join(workspace, 'inner'));

      const read = await host.handle('documents.read', { path: 'notes.crew.json' });
      expect(read).toMatchObject({ ok: false, error: { code: 'bad_input' } });
      expect(JSON.stringify(read)).not.toContain('hunter2');
      const write = await host.handle('documents.save', { path: 'linked/evil.crew.json', document: { kind: 'crew' } });
      expect(write).toMatchObject({ ok: false, error: { code: 'bad_input' } });
      expect(existsSync(join(outside, 'evil.crew.json'))).toBe(false);
      const inner = await host.handle('documents.save', { path: 'inner/x.crew.json', document: { kind: 'crew' } });
      expect(inner).toMatchObject({ ok: false, error: { code: 'bad_input' } });
      const { documents } = await call('documents.list');
      expect(documents.map((d: { path: string }) => d.path)).not.toContain('notes.crew.json');
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it('opens a file that is not JSON with its text and the error, and lists it flagged', async () => {
    writeFileSync(join(workspace, 'broken.crew.json'), '{ "kind": "crew", ');
    const read = await call('documents.read', { path: 'broken.crew.json' });
    expect(read.document).toBeNull();
    expect(read.text).toBe('{ "kind": "crew", ');
    expect(read.problems[0].message).toMatch(/invalid JSON/);
    const missing = await host.handle('documents.read', { path: 'nope.crew.json' });
    expect(missing).toMatchObject({ ok: false, error: { code: 'not_found' } });
    const { documents } = await call('documents.list');
    expect(documents.find((d: { path: string }) => d.path === 'broken.crew.json')).toMatchObject({ problemCount: 1 });
  });
});

describe('HostService: runs', () => {
  it('starts a run, pushes its events live, keeps them, and replays from a task', async () => {
    const { runId } = await call('runs.start', { path: 'research-brief.crew.json', inputs: { topic: 'solar' } });
    const end = await untilRunEnds(runId);
    expect(end.type).toBe('run.completed');
    const live = eventsOf(runId);
    expect(live.map((e) => e.seq)).toEqual(live.map((_, i) => i + 1));
    expect(live.some((e) => e.type === 'tool.started')).toBe(true);
    expect(live.some((e) => e.type === 'task.retrying')).toBe(true);

    const stored = await call('runs.events', { runId, afterSeq: 0 });
    expect(stored.events).toEqual(live);
    const page = await call('runs.events', { runId, afterSeq: 3, limit: 5 });
    expect(page.events.map((e: RuntimeEvent) => e.seq)).toEqual([4, 5, 6, 7, 8]);
    expect(page).toMatchObject({ lastSeq: 8, more: true });

    const { run, taskOutputs } = await call('runs.get', { runId });
    expect(run).toMatchObject({ id: runId, status: 'completed', documentPath: 'research-brief.crew.json', inputs: { topic: 'solar' } });
    expect(taskOutputs.map((o: { taskId: string }) => o.taskId)).toEqual(['research', 'brief']);

    const replay = await call('runs.replay', { runId, fromTaskId: 'brief' });
    await untilRunEnds(replay.runId);
    const replayed = eventsOf(replay.runId);
    expect(replayed.find((e) => e.type === 'task.completed' && e.taskId === 'research')).toMatchObject({ restoredFrom: runId });
    const { runs } = await call('runs.list', {});
    expect(runs[0]).toMatchObject({ id: replay.runId, replayOf: { runId, fromTaskId: 'brief' }, documentPath: 'research-brief.crew.json' });
    expect(runs[1]).toMatchObject({ id: runId, documentPath: 'research-brief.crew.json' });
  });

  it('rejects a run that cannot start with the reason, and starts nothing', async () => {
    const doc = JSON.parse(readFileSync(join(workspace, 'research-brief.crew.json'), 'utf8'));
    doc.inputs = [{ name: 'topic' }];
    writeFileSync(join(workspace, 'needs-topic.crew.json'), JSON.stringify(doc));
    const missing = await host.handle('runs.start', { path: 'needs-topic.crew.json', inputs: {} });
    expect(missing).toMatchObject({ ok: false, error: { code: 'bad_input' } });
    if (!missing.ok) expect(missing.error.message).toContain('missing input "topic"');

    writeFileSync(join(workspace, 'bad.crew.json'), JSON.stringify({ ...doc, agents: [] }));
    const invalid = await host.handle('runs.start', { path: 'bad.crew.json', inputs: {} });
    expect(invalid).toMatchObject({ ok: false, error: { code: 'bad_input' } });
    if (!invalid.ok) expect(invalid.error.problems).toContainEqual({ path: 'agents', message: 'a crew needs at least one agent' });
    expect((await call('runs.list', {})).runs).toEqual([]);
  });

  it('asks for tool approval and task review through human.pending / human.answer', async () => {
    writeFileSync(join(workspace, 'review.crew.json'), JSON.stringify(reviewCrew));
    reviewCrew.agents[0]!.llm.script.rules.unshift({
      when: { callIndex: 0 } as never,
      reply: { content: '', toolCalls: [{ name: 'current_time', arguments: {} }] } as never,
    });
    writeFileSync(join(workspace, 'review.crew.json'), JSON.stringify(reviewCrew));
    reviewCrew.agents[0]!.llm.script.rules.shift();

    const { runId } = await call('runs.start', { path: 'review.crew.json', inputs: {} });
    const approval = await until(() => (eventsOf(runId).find((e) => e.type === 'human.requested') as any) ?? undefined);
    expect(approval).toMatchObject({ kind: 'tool_approval', tool: 'current_time' });
    const pending = await call('human.pending');
    expect(pending.requests).toEqual([expect.objectContaining({ runId, requestId: approval.requestId, kind: 'tool_approval', tool: 'current_time' })]);

    const wrong = await host.handle('human.answer', { runId, requestId: approval.requestId, feedback: 'hm' });
    expect(wrong).toMatchObject({ ok: false, error: { code: 'bad_input' } });
    await call('human.answer', { runId, requestId: approval.requestId, decision: 'approve' });
    const twice = await host.handle('human.answer', { runId, requestId: approval.requestId, decision: 'approve' });
    expect(twice).toMatchObject({ ok: false, error: { code: 'conflict' } });

    const review = await until(() => (eventsOf(runId).find((e) => e.type === 'human.requested' && e.kind === 'task_review') as any) ?? undefined);
    await call('human.answer', { runId, requestId: review.requestId, feedback: 'make it shorter' });
    const review2 = await until(
      () => (eventsOf(runId).find((e) => e.type === 'human.requested' && e.kind === 'task_review' && e.requestId !== review.requestId) as any) ?? undefined,
    );
    expect(review2.output).toBe('Short.');
    await call('human.answer', { runId, requestId: review2.requestId, feedback: '' });
    expect((await untilRunEnds(runId)).type).toBe('run.completed');
    expect((await call('human.pending')).requests).toEqual([]);
  });

  it('cancels a run waiting for a person; it keeps its events and ends cancelled', async () => {
    writeFileSync(join(workspace, 'review.crew.json'), JSON.stringify(reviewCrew));
    const { runId } = await call('runs.start', { path: 'review.crew.json', inputs: {} });
    await until(() => eventsOf(runId).find((e) => e.type === 'human.requested'));
    expect(await call('runs.cancel', { runId })).toEqual({ cancelled: true });
    expect((await untilRunEnds(runId)).type).toBe('run.cancelled');
    expect((await call('human.pending')).requests).toEqual([]);
    const { run } = await call('runs.get', { runId });
    expect(run.status).toBe('cancelled');
    expect((await call('runs.events', { runId })).events.length).toBe(eventsOf(runId).length);
  });
});

describe('HostService: settings and keys', () => {
  it('saves valid settings, refuses invalid ones without touching the file, and never returns key values', async () => {
    const settings = { version: 1, models: { default: 'local', profiles: { local: { provider: 'openai', model: 'llama3', baseUrl: 'http://127.0.0.1:9/v1', apiKeyEnv: 'LOCAL_KEY' } } } };
    expect((await call('settings.save', { settings })).problems).toEqual([]);
    const before = readFileSync(join(workspace, 'crewdeck.json'), 'utf8');
    const bad = await call('settings.save', { settings: { version: 1, models: { default: 'missing', profiles: {} } } });
    expect(bad.problems).toEqual([{ path: 'models.default', message: 'no profile named "missing"' }]);
    const badShape = await call('settings.save', { settings: { version: 1, models: { profiles: { x: { provider: 'nope', model: 'm' } } } } });
    expect(badShape.problems[0].path).toBe('models.profiles.x.provider');
    expect(readFileSync(join(workspace, 'crewdeck.json'), 'utf8')).toBe(before);

    const got = await call('settings.get');
    expect(got.settings.models.default).toBe('local');
    expect(got.keys).toEqual([
      { name: 'LOCAL_KEY', present: false },
      { name: 'OPENAI_API_KEY', present: false },
    ]);
    const secrets = await call('secrets.list');
    expect(secrets.writable).toBe(false);
    const set = await host.handle('secrets.set', { name: 'LOCAL_KEY', value: 'sk-canary' });
    expect(set).toMatchObject({ ok: false, error: { code: 'bad_input' } });
    if (!set.ok) expect(set.error.message).not.toContain('sk-canary');
  });

  it('tests a connection: a scripted profile loads its script; an unreachable server is reported', async () => {
    const scripted = await call('settings.testConnection', { model: { provider: 'scripted', model: 'demo', script: 'scripts/research-brief.script.json' } });
    expect(scripted).toMatchObject({ ok: true, models: ['demo'] });
    const brokenScript = await call('settings.testConnection', { model: { provider: 'scripted', model: 'demo', script: 'scripts/none.json' } });
    expect(brokenScript.ok).toBe(false);
    expect(brokenScript.error).toContain('file not found');
    const down = await call('settings.testConnection', { model: { provider: 'openai', model: 'm', baseUrl: 'http://127.0.0.1:9/v1' } });
    expect(down.ok).toBe(false);
    expect(down.error).toMatch(/cannot connect/);
    // An inline model may not send an arbitrary variable anywhere, nor read a script outside the workspace.
    const exfiltrate = await call('settings.testConnection', { model: { provider: 'openai', model: 'm', baseUrl: 'http://127.0.0.1:9/v1', apiKeyEnv: 'AWS_SECRET_ACCESS_KEY' } });
    expect(exfiltrate).toMatchObject({ ok: false, error: 'AWS_SECRET_ACCESS_KEY is not named by a saved profile: save the profile, then test it' });
    const outsideScript = await call('settings.testConnection', { model: { provider: 'scripted', model: 'demo', script: '/etc/passwd' } });
    expect(outsideScript).toMatchObject({ ok: false, error: 'the script must be a file inside the workspace' });
    const unknownProfile = await call('settings.testConnection', { model: 'nope' });
    expect(unknownProfile).toMatchObject({ ok: false });
  });
});

describe('HostService: change notices', () => {
  it('tells subscribers about a save only when the name or the problem count changed', async () => {
    const doc = JSON.parse(readFileSync(join(workspace, 'research-brief.crew.json'), 'utf8'));
    const notices = () => pushes.filter((p) => p.kind === 'documents.changed').length;
    await call('documents.save', { path: 'research-brief.crew.json', document: doc });
    expect(notices()).toBe(1);
    await call('documents.save', { path: 'research-brief.crew.json', document: { ...doc, description: 'typing…' } });
    expect(notices()).toBe(1);
    await call('documents.save', { path: 'research-brief.crew.json', document: { ...doc, name: 'Renamed brief' } });
    expect(notices()).toBe(2);
    await call('documents.save', { path: 'research-brief.crew.json', document: { ...doc, name: 'Renamed brief', agents: [] } });
    expect(notices()).toBe(3);
  });
});
