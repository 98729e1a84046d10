import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { EventOf, RuntimeEvent } from '../../shared/events';
import type { HostPush } from '../../shared/host-api';
import { createHostService } from '../../runtime/host/createHostService';
import type { HostService } from '../../runtime/host/hostService';

let workspace: string | undefined;
const hosts: HostService[] = [];
afterEach(async () => {
  for (const h of hosts.splice(0)) await h.close();
  if (workspace) rmSync(workspace, { recursive: true, force: true });
});

const EVALUATOR_SYSTEM = 'You evaluate how an AI agent did during training';

function writeCrew(dir: string): void {
  const model = (role: string, suggestions: string[]) => ({
    provider: 'scripted',
    model: `m-${role}`,
    script: {
      rules: [
        { when: { system: EVALUATOR_SYSTEM }, reply: JSON.stringify({ suggestions, quality: 7, summary: 'ok' }) },
        { when: { system: 'You score how well an answer' }, reply: JSON.stringify({ score: 8, reason: 'fine' }) },
        { when: { last: 'A human reviewed your final answer' }, reply: `${role} improved` },
      ],
      default: `${role} first`,
    },
  });
  writeFileSync(
    join(dir, 'writing.crew.json'),
    JSON.stringify({
      kind: 'crew',
      version: 1,
      id: 'writing',
      name: 'Writing',
      agents: [
        { id: 'writer', role: 'Writer', goal: 'g', backstory: 'b', llm: model('Writer', ['Lead with the main point.', 'Use short sentences.']) },
        { id: 'editor', role: 'Editor', goal: 'g', backstory: 'b', llm: model('Editor', ['Be formal.']) },
      ],
      tasks: [
        { id: 'draft', description: 'Draft', expectedOutput: 'A draft', agentId: 'writer', tests: { checks: [{ type: 'contains', text: 'first' }] } },
        { id: 'polish', description: 'Polish', expectedOutput: 'Polished', agentId: 'editor' },
      ],
    }),
  );
}

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
  const waitFor = async <T>(what: string, check: () => Promise<T | undefined> | T | undefined): Promise<T> => {
    const started = Date.now();
    for (;;) {
      const value = await check();
      if (value !== undefined) return value;
      if (Date.now() - started > 15_000) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  return { host, call, pushes, waitFor };
}

describe('training and tests through the host API', () => {
  it('trains with reviews answered through human.answer, edits a suggestion, and the next run shows it and names the version', async () => {
    workspace = mkdtempSync(join(tmpdir(), 'crewdeck-hosttrain-'));
    writeCrew(workspace);
    const { call, pushes, waitFor } = open(workspace);

    const started = await call('training.start', { path: 'writing.crew.json', iterations: 2 });
    expect(started.trainingId).toMatch(/^train_/);
    expect(started.runId).toMatch(/^run_/);

    // Answer every review as the dialogs would: feedback on the Writer's first answers, accept the rest.
    const answered = new Set<string>();
    const feedback = ['Lead with the point', 'Shorter sentences'];
    const done = async () => (await call('training.sessions', { crewId: 'writing' })).sessions.find((s: any) => s.id === started.trainingId && s.status === 'completed');
    await waitFor('the training to complete', async () => {
      for (const r of (await call('human.pending')).requests) {
        if (answered.has(r.requestId)) continue;
        answered.add(r.requestId);
        const give = r.agentRole === 'Writer' && r.output === 'Writer first' ? feedback.shift()! : '';
        await call('human.answer', { runId: r.runId, requestId: r.requestId, feedback: give });
      }
      return done();
    });
    const runStarts = pushes.flatMap((p) => (p.kind === 'event' && p.event.type === 'run.started' ? [p.event] : []));
    // The session's own run first (its events and the evaluator's calls), then the two crew runs.
    expect(runStarts.map((e) => e.purpose?.kind)).toEqual(['evaluation', 'training', 'training']);
    expect(runStarts[1]!.runId).toBe(started.runId);
    const sessionEvents = pushes.flatMap((p) => (p.kind === 'event' && p.event.runId === runStarts[0]!.runId ? [p.event.type] : []));
    expect(sessionEvents.filter((t) => t.startsWith('training.'))).toEqual([
      'training.started',
      'training.iteration.started',
      'training.iteration.started',
      'training.evaluation.started',
      'training.evaluated',
      'training.version.created',
      'training.completed',
    ]);
    expect(sessionEvents).toContain('llm.completed');

    const { versions } = await call('training.versions', { crewId: 'writing' });
    expect(versions.map((v: any) => [v.role, v.version, v.status, v.suggestions])).toEqual([['Writer', 1, 'active', ['Lead with the main point.', 'Use short sentences.']]]);
    const { records } = await call('training.records', { crewId: 'writing', ids: versions[0].recordIds });
    expect(records.map((r: any) => [r.iteration, r.feedback])).toEqual([
      [1, 'Lead with the point'],
      [2, 'Shorter sentences'],
    ]);

    const edited = await call('training.updateSuggestion', { crewId: 'writing', role: 'Writer', version: 1, index: 1, text: 'Keep sentences under 15 words.' });
    expect(edited.version.suggestions).toEqual(['Lead with the main point.', 'Keep sentences under 15 words.']);
    expect(edited.version.history).toHaveLength(1);
    expect(pushes.some((p) => p.kind === 'training.changed' && p.crewId === 'writing')).toBe(true);

    const { runId } = await call('runs.start', { path: 'writing.crew.json', inputs: {} });
    const events: RuntimeEvent[] = await waitFor('the run to end', async () => {
      const page = await call('runs.events', { runId });
      return page.events.some((e: RuntimeEvent) => e.type === 'run.completed') ? page.events : undefined;
    });
    const writerStart = events.find((e): e is EventOf<'agent.started'> => e.type === 'agent.started' && e.role === 'Writer')!;
    expect(writerStart.suggestions).toEqual({ version: 1, count: 2 });
    const writerCall = events.find((e): e is EventOf<'llm.started'> => e.type === 'llm.started' && e.agentRole === 'Writer')!;
    expect(writerCall.messages[1]!.content).toContain('- Keep sentences under 15 words.');

    // Errors name the problem with the right codes.
    const missing = await hosts[0]!.handle('training.activate', { crewId: 'writing', role: 'Writer', version: 9 });
    expect(missing).toMatchObject({ ok: false, error: { code: 'not_found' } });
    const noEarlier = await hosts[0]!.handle('training.rollback', { crewId: 'writing', role: 'Writer' });
    expect(noEarlier).toMatchObject({ ok: false, error: { code: 'conflict' } });
    const badIndex = await hosts[0]!.handle('training.updateSuggestion', { crewId: 'writing', role: 'Writer', version: 1, index: 5, text: 'x' });
    expect(badIndex).toMatchObject({ ok: false, error: { code: 'bad_input' } });
    const empty = await hosts[0]!.handle('training.updateSuggestion', { crewId: 'writing', role: 'Writer', version: 1, index: 0, text: '  ' });
    expect(empty).toMatchObject({ ok: false, error: { code: 'invalid_request' } });

    const disabled = await call('training.disable', { crewId: 'writing', role: 'Writer', version: 1 });
    expect(disabled.version.status).toBe('disabled');
    const diff = await call('training.diff', { crewId: 'writing', role: 'Writer', from: 1, to: 1 });
    expect(diff.diff.unchanged).toHaveLength(2);
  }, 60_000);

  it('tests.start runs the crew unattended; tests.get gives the score table', async () => {
    workspace = mkdtempSync(join(tmpdir(), 'crewdeck-hosttest-'));
    writeCrew(workspace);
    const { call, waitFor } = open(workspace);
    const { testId, runId } = await call('tests.start', { path: 'writing.crew.json', iterations: 2 });
    expect(runId).toMatch(/^run_/);
    const report = await waitFor('the test to complete', async () => {
      const r = await call('tests.get', { testId });
      return r.session.status === 'completed' ? r : undefined;
    });
    expect(report.results).toHaveLength(4);
    expect(report.tasks.map((t: any) => [t.taskId, t.scores, t.averageScore, t.averageCheckScore])).toEqual([
      ['draft', [8, 8], 8, 10],
      ['polish', [8, 8], 8, null],
    ]);
    expect((await call('tests.list', { crewId: 'writing' })).tests.map((t: any) => t.id)).toEqual([testId]);
    const notThere = await hosts[0]!.handle('tests.get', { testId: 'test_nope' });
    expect(notThere).toMatchObject({ ok: false, error: { code: 'not_found' } });
  }, 60_000);
});
