import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MissingInput } from '../../runtime/errors';
import { CrewDocumentSchema } from '../../shared/model/crew';
import { agentPrompts, crew, ofType, runCrew, scripted, tempWorkspace, traceProblems } from '../support/crewHarness';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

/** Each agent answers with a fixed text naming itself, so prompts show whose output they carry. */
const echoModel = scripted({
  rules: [
    { when: { system: 'You are Alpha.' }, reply: 'ALPHA-OUTPUT' },
    { when: { system: 'You are Beta.' }, reply: 'BETA-OUTPUT' },
    { when: { system: 'You are Gamma.' }, reply: 'GAMMA-OUTPUT' },
    { when: { system: 'You are Delta.' }, reply: 'DELTA-OUTPUT' },
  ],
});
const agents = ['Alpha', 'Beta', 'Gamma', 'Delta'].map((role) => ({ id: role.toLowerCase(), role, goal: `be ${role}`, llm: echoModel }));

describe('sequential crews', () => {
  it('gives each task the context its `context` field asks for', async () => {
    const doc = crew({
      agents,
      tasks: [
        { id: 't1', description: 'first', expectedOutput: 'x', agentId: 'alpha' },
        { id: 't2', description: 'second', expectedOutput: 'x', agentId: 'beta', context: 'none' },
        { id: 't3', description: 'third', expectedOutput: 'x', agentId: 'gamma', context: ['t1'] },
        { id: 't4', description: 'fourth', expectedOutput: 'x', agentId: 'delta' },
      ],
    });
    const { result, events, ws } = await runCrew(doc);
    cleanups.push(ws.remove);
    expect(result.status).toBe('completed');
    const [p1, p2, p3, p4] = agentPrompts(events);
    expect(p1).not.toContain('This is the context you are working with');
    expect(p2).not.toContain('ALPHA-OUTPUT'); // "none"
    expect(p3).toContain('ALPHA-OUTPUT'); // a list: only t1
    expect(p3).not.toContain('BETA-OUTPUT');
    for (const earlier of ['ALPHA-OUTPUT', 'BETA-OUTPUT', 'GAMMA-OUTPUT']) expect(p4).toContain(earlier); // omitted: all prior
    const started = ofType(events, 'task.started');
    expect(started.map((e) => e.context)).toEqual(['', '', 'ALPHA-OUTPUT', 'ALPHA-OUTPUT\n\n----------\n\nBETA-OUTPUT\n\n----------\n\nGAMMA-OUTPUT']);
  });

  it('runs independent async tasks at the same time', async () => {
    const slow = scripted({ default: { content: 'done slowly', delayMs: 250 } });
    const doc = crew({
      agents: [
        { id: 'a', role: 'A', goal: 'g', llm: slow },
        { id: 'b', role: 'B', goal: 'g', llm: slow },
        { id: 'c', role: 'C', goal: 'g', llm: scripted({ default: 'summary' }) },
      ],
      tasks: [
        { id: 'fetch1', description: 'one', expectedOutput: 'x', agentId: 'a', async: true },
        { id: 'fetch2', description: 'two', expectedOutput: 'x', agentId: 'b', async: true },
        { id: 'sum', description: 'join', expectedOutput: 'x', agentId: 'c' },
      ],
    });
    const { result, events, ws } = await runCrew(doc);
    cleanups.push(ws.remove);
    expect(result.status).toBe('completed');
    const span = (id: string) => ({
      start: ofType(events, 'task.started').find((e) => e.taskId === id)!.ts,
      end: ofType(events, 'task.completed').find((e) => e.taskId === id)!.ts,
    });
    const one = span('fetch1');
    const two = span('fetch2');
    expect(two.start).toBeLessThan(one.end); // the second started before the first finished
    expect(one.start).toBeLessThan(two.end);
    // The synchronous task waited for both and got both outputs as context.
    expect(span('sum').start).toBeGreaterThanOrEqual(Math.max(one.end, two.end));
    expect(agentPrompts(events, 'C')[0]!.match(/done slowly/g)).toHaveLength(2);
  });

  it('when a task fails, async tasks still running are stopped and close their spans before the run ends', async () => {
    const doc = crew({
      agents: [
        { id: 'slow', role: 'Slow', goal: 'g', llm: scripted({ default: { content: 'late', delayMs: 2000 } }) },
        { id: 'bad', role: 'Bad', goal: 'g', llm: scripted({ default: { error: { status: 400, message: 'broken model' } } }) },
      ],
      tasks: [
        { id: 'background', description: 'b', expectedOutput: 'x', agentId: 'slow', async: true },
        { id: 'now', description: 'n', expectedOutput: 'x', agentId: 'bad', context: 'none' },
      ],
    });
    const { result, events, ws } = await runCrew(doc);
    cleanups.push(ws.remove);
    expect(result.status).toBe('failed');
    expect(result.error?.message).toBe('broken model');
    expect(ofType(events, 'task.failed').map((e) => e.taskId).sort()).toEqual(['background', 'now']);
    expect(traceProblems(events)).toEqual([]);
    expect(ws.store.events(result.runId)).toEqual(events);
  });

  it('skips a task whose condition is false and makes no model call for it', async () => {
    const doc = crew({
      agents,
      tasks: [
        { id: 'check', description: 'check', expectedOutput: 'x', agentId: 'alpha' },
        { id: 'onlyIfBeta', description: 'skip me', expectedOutput: 'x', agentId: 'beta', condition: { type: 'contains', text: 'BETA' } },
        { id: 'onlyIfAlpha', description: 'run me', expectedOutput: 'x', agentId: 'gamma', condition: { type: 'regex', pattern: '^alpha', flags: 'i' } },
      ],
    });
    const { result, events, ws } = await runCrew(doc);
    cleanups.push(ws.remove);
    expect(ofType(events, 'task.skipped').map((e) => e.taskId)).toEqual(['onlyIfBeta']);
    expect(ofType(events, 'task.skipped')[0]!.reason).toContain('"BETA"');
    expect(agentPrompts(events, 'Beta')).toHaveLength(0);
    expect(result.tasks.find((t) => t.taskId === 'onlyIfBeta')).toMatchObject({ raw: '', skipped: true });
    expect(result.output).toBe('GAMMA-OUTPUT');
  });

  it('evaluates json_field and script conditions', async () => {
    const jsonModel = scripted({ rules: [{ when: { system: 'You are Alpha.' }, reply: '{"score": 7, "verdict": "go"}' }, { when: {}, reply: 'ran' }] });
    const doc = crew({
      agents: [
        { id: 'alpha', role: 'Alpha', goal: 'g', llm: jsonModel },
        { id: 'beta', role: 'Beta', goal: 'g', llm: jsonModel },
      ],
      tasks: [
        { id: 'score', description: 'score', expectedOutput: 'x', agentId: 'alpha' },
        { id: 'high', description: 'h', expectedOutput: 'x', agentId: 'beta', context: 'none', condition: { type: 'json_field', path: 'score', op: 'gt', value: 5 } },
        { id: 'low', description: 'l', expectedOutput: 'x', agentId: 'beta', condition: { type: 'script', code: 'return output.includes("stop")' } },
      ],
    });
    const { events, ws } = await runCrew(doc);
    cleanups.push(ws.remove);
    expect(ofType(events, 'task.completed').map((e) => e.taskId)).toEqual(['score', 'high']);
    expect(ofType(events, 'task.skipped').map((e) => e.taskId)).toEqual(['low']);
  });

  it('crew output is the last non-empty task output, and outputFile is written', async () => {
    const doc = crew({
      agents,
      tasks: [
        { id: 'a', description: 'a', expectedOutput: 'x', agentId: 'alpha' },
        { id: 'b', description: 'b', expectedOutput: 'x', agentId: 'beta', outputFile: 'reports/{name}.md' },
        { id: 'c', description: 'c', expectedOutput: 'x', agentId: 'gamma', condition: { type: 'contains', text: 'never' } },
      ],
    });
    const { result, ws } = await runCrew(doc, { inputs: { name: 'weekly' } });
    cleanups.push(ws.remove);
    expect(result.tasks.map((t) => t.raw)).toEqual(['ALPHA-OUTPUT', 'BETA-OUTPUT', '']);
    expect(result.output).toBe('BETA-OUTPUT');
    const file = join(ws.dir, 'reports', 'weekly.md');
    expect(existsSync(file)).toBe(true);
    expect(readFileSync(file, 'utf8')).toBe('BETA-OUTPUT');
  });

  it('refuses an output file outside the workspace: statically, and through a symlink at run time', async () => {
    const outside = crew({ agents, tasks: [{ id: 'a', description: 'a', expectedOutput: 'x', agentId: 'alpha' }] });
    const escape = CrewDocumentSchema.safeParse({ ...outside, tasks: [{ ...outside.tasks[0], outputFile: '../escape.md' }] });
    expect(escape.success).toBe(false);
    expect(escape.error?.issues[0]!.message).toBe('"../escape.md" leaves the workspace; use a path inside it');

    const ws = tempWorkspace();
    cleanups.push(ws.remove);
    const elsewhere = mkdtempSync(join(tmpdir(), 'crewdeck-elsewhere-'));
    cleanups.push(() => rmSync(elsewhere, { recursive: true, force: true }));
    symlinkSync(elsewhere, join(ws.dir, 'exports'));
    const doc = crew({ agents, tasks: [{ id: 'a', description: 'a', expectedOutput: 'x', agentId: 'alpha', outputFile: 'exports/report.md' }] });
    const { result, events } = await runCrew(doc, { workspace: ws });
    expect(result.status).toBe('failed');
    expect(ofType(events, 'task.failed')[0]!.error).toContain('leads outside the workspace through a symbolic link');
    expect(existsSync(join(elsewhere, 'report.md'))).toBe(false);
  });

  it('interpolates inputs and names a missing input', async () => {
    const doc = crew({
      agents: [{ id: 'alpha', role: 'Alpha', goal: 'study {topic}', llm: echoModel }],
      tasks: [{ id: 'a', description: 'Write about {topic} for {audience}', expectedOutput: 'x', agentId: 'alpha' }],
      inputs: [{ name: 'audience', default: 'engineers' }],
    });
    const { events, ws } = await runCrew(doc, { inputs: { topic: 'tides' } });
    cleanups.push(ws.remove);
    expect(agentPrompts(events)[0]).toContain('Write about tides for engineers');
    const system = ofType(events, 'llm.started')[0]!.messages[0]!.content;
    expect(system).toContain('study tides');

    const missing = runCrew(doc);
    await expect(missing).rejects.toBeInstanceOf(MissingInput);
    await expect(missing).rejects.toThrow('missing input "topic" (used in agents.0.goal, tasks.0.description)');
  });

  it('fails the run with a clear error when no task produced output', async () => {
    const empty = scripted({ default: { content: '' } });
    const doc = crew({
      agents: [{ id: 'a', role: 'A', goal: 'g', llm: empty, maxIter: 1 }],
      tasks: [{ id: 't', description: 'd', expectedOutput: 'x', agentId: 'a' }],
    });
    const { result, events, ws } = await runCrew(doc);
    cleanups.push(ws.remove);
    expect(result.status).toBe('failed');
    expect(result.error?.name).toBe('NoCrewOutput');
    expect(ofType(events, 'run.failed')).toHaveLength(1);
  });
});
