import { afterEach, describe, expect, it } from 'vitest';
import { assertGapFree, describeResult, listRuns, parseSingleJson, runCli, runEvents, scriptedCrew, tempDir, type TempWorkspace } from './cliHarness';
import type { EventOf, RuntimeEvent } from '../../shared/events';

const EVALUATOR_SYSTEM = 'You evaluate how an AI agent did during training';

const agentModel = (role: string, evaluation: object) => ({
  provider: 'scripted',
  model: `model-${role.toLowerCase()}`,
  script: {
    rules: [
      { when: { system: EVALUATOR_SYSTEM }, reply: JSON.stringify(evaluation) },
      { when: { last: 'A human reviewed your final answer' }, reply: `${role} improved answer about Solar power` },
    ],
    default: `${role} first answer about Solar power TODO`,
  },
});

function writingCrew() {
  return scriptedCrew({
    id: 'writing-crew',
    name: 'Writing crew',
    agents: [
      { id: 'writer', role: 'Writer', goal: 'Write', backstory: 'A writer.', llm: agentModel('Writer', { suggestions: ['Open with a one-line summary.', 'Never leave TODO markers.'], quality: 6, summary: 'Needed two rounds.' }) },
      { id: 'editor', role: 'Editor', goal: 'Edit', backstory: 'An editor.', llm: agentModel('Editor', { suggestions: ['Keep it formal.'], quality: 8, summary: 'Fine.' }) },
    ],
    tasks: [
      {
        id: 'draft',
        description: 'Draft a note about solar power',
        expectedOutput: 'A short note',
        agentId: 'writer',
        // 1 of 2 passes on every run (the output says Solar, and TODO): 5.0, whatever the evaluator says.
        tests: { checks: [{ type: 'contains', text: 'Solar' }, { type: 'not_contains', text: 'TODO' }] },
      },
      {
        id: 'polish',
        description: 'Polish the note',
        expectedOutput: 'A polished note',
        agentId: 'editor',
        tests: { checks: [{ type: 'length', min: 5 }] },
      },
    ],
  });
}

const judge = (name: string, scores: number[]) => ({
  provider: 'scripted',
  model: name,
  script: { sequence: scores.map((score) => JSON.stringify({ score, reason: `judged ${score}` })), default: JSON.stringify({ score: 5, reason: 'default' }) },
});

// Spawns the built CLI: run `npm run build` first.
let ws: TempWorkspace;
afterEach(() => ws?.remove());

function setupWorkspace(): string {
  ws = tempDir('crewdeck-train-cli-');
  ws.write('crewdeck.json', {
    version: 1,
    models: {
      profiles: {
        judgeA: judge('judge-a', [9, 8, 10, 7, 9, 8]),
        judgeB: judge('judge-b', [2, 3, 1, 4, 2, 3]),
        // An evaluator that cannot answer at all (its script has nothing to say).
        mute: { provider: 'scripted', model: 'mute', script: { rules: [] } },
      },
    },
  });
  return ws.write('writing.crew.json', writingCrew());
}

const started = (events: RuntimeEvent[], role: string) => events.find((e): e is EventOf<'agent.started'> => e.type === 'agent.started' && e.role === role)!;
const userPrompt = (events: RuntimeEvent[], role: string) =>
  events.filter((e): e is EventOf<'llm.started'> => e.type === 'llm.started' && e.agentRole === role && e.purpose === 'agent')[0]!.messages.find((m) => m.role === 'user')!.content;

describe('crewdeck train and suggestions', () => {
  it('the evaluator works in a run of its own: listed by runs list, with llm.* events whose tokens are the session\'s evaluator tokens', async () => {
    const file = setupWorkspace();
    const trained = await runCli(['train', file, '-n', '1', '--json'], { stdin: 'Open with a summary\n\n\n', timeoutMs: 60_000 });
    expect(trained.code, describeResult(trained)).toBe(0);
    const result = parseSingleJson(trained);
    expect(result.status).toBe('completed');

    const runs = await listRuns(ws.dir);
    const evaluation = runs.find((r) => r.id === result.evaluationRunId);
    expect(evaluation, JSON.stringify(runs)).toMatchObject({ kind: 'crew', documentId: 'writing-crew', status: 'completed' });
    expect(runs.map((r) => r.id)).toEqual(expect.arrayContaining([...result.runIds, result.evaluationRunId]));

    const events = await runEvents(ws.dir, result.evaluationRunId);
    assertGapFree(events);
    expect(events[0]).toMatchObject({ type: 'run.started', process: 'evaluation', purpose: { kind: 'evaluation', of: 'training', sessionId: result.trainingId } });
    const calls = events.filter((e): e is EventOf<'llm.completed'> => e.type === 'llm.completed');
    expect(events.filter((e) => e.type === 'llm.started' && e.purpose === 'evaluation')).toHaveLength(calls.length);
    expect(calls.length).toBeGreaterThan(0);
    for (const c of calls) expect(c.usage.totalTokens).toBeGreaterThan(0);
    const sum = (key: 'promptTokens' | 'completionTokens' | 'totalTokens') => calls.reduce((n, c) => n + c.usage[key], 0);
    expect(result.evaluatorUsage.totalTokens).toBe(sum('totalTokens'));
    expect(result.evaluatorUsage.promptTokens).toBe(sum('promptTokens'));
    expect(result.evaluatorUsage.completionTokens).toBe(sum('completionTokens'));
    expect(evaluation.tokenUsage.totalTokens).toBe(sum('totalTokens'));
    expect(events.map((e) => e.type).filter((t) => t.startsWith('training.'))).toEqual([
      'training.started',
      'training.iteration.started',
      'training.evaluation.started',
      'training.evaluated',
      'training.version.created',
      'training.completed',
    ]);
    expect(events.at(-1)?.type).toBe('run.completed');
  });

  it('trains with feedback typed (piped) at the terminal; the next run applies the Writer suggestions only; disable removes them', async () => {
    const file = setupWorkspace();
    const trained = await runCli(['train', file, '-n', '2'], { stdin: 'Open with a summary\n\n\nNo TODO markers please\n\n\n', timeoutMs: 60_000 });
    expect(trained.code, describeResult(trained)).toBe(0);
    expect(trained.stdout).toContain('Training iteration 2 of 2');
    expect(trained.stdout).toContain('Review the answer of Writer');
    expect(trained.stdout).toContain('Writer — version 1 (active), quality 6/10');
    expect(trained.stdout).toContain('  - Open with a one-line summary.');
    expect(trained.stdout).toContain('No feedback, no new version: Editor');

    const listed = await runCli(['suggestions', 'list', 'writing-crew', '--json', '--workspace', ws.dir]);
    expect(listed.code, describeResult(listed)).toBe(0);
    const versions = parseSingleJson({ ...listed, stdout: `{"v":${listed.stdout.trim()}}` }).v;
    expect(versions.map((v: { role: string; version: number; status: string }) => [v.role, v.version, v.status])).toEqual([['Writer', 1, 'active']]);

    const shown = await runCli(['suggestions', 'show', 'writing-crew', 'Writer', '--workspace', ws.dir]);
    expect(shown.stdout).toContain('Feedback behind it');
    expect(shown.stdout).toContain('No TODO markers please');

    const run = parseSingleJson(await runCli(['run', file, '--json']));
    const events = await runEvents(ws.dir, run.runId);
    expect(userPrompt(events, 'Writer')).toContain('You MUST follow these instructions');
    expect(userPrompt(events, 'Writer')).toContain('- Never leave TODO markers.');
    expect(userPrompt(events, 'Editor')).not.toContain('You MUST follow these instructions');
    expect(started(events, 'Writer').suggestions).toEqual({ version: 1, count: 2 });
    expect(started(events, 'Editor').suggestions).toBeUndefined();

    const edited = await runCli(['suggestions', 'edit', 'writing-crew', 'Writer', '1', '--index', '2', '--text', 'Remove every TODO marker.', '--workspace', ws.dir]);
    expect(edited.code, describeResult(edited)).toBe(0);
    const run2 = parseSingleJson(await runCli(['run', file, '--json']));
    expect(userPrompt(await runEvents(ws.dir, run2.runId), 'Writer')).toContain('- Remove every TODO marker.');

    const rollback = await runCli(['suggestions', 'rollback', 'writing-crew', 'Writer', '--workspace', ws.dir]);
    expect(rollback.code).toBe(2);
    expect(rollback.stderr).toContain('version 1 is the first version');

    const disabled = await runCli(['suggestions', 'disable', 'writing-crew', 'Writer', '1', '--workspace', ws.dir]);
    expect(disabled.code, describeResult(disabled)).toBe(0);
    const run3 = parseSingleJson(await runCli(['run', file, '--json']));
    const events3 = await runEvents(ws.dir, run3.runId);
    expect(userPrompt(events3, 'Writer')).not.toContain('You MUST follow these instructions');
    expect(started(events3, 'Writer').suggestions).toBeUndefined();
  }, 120_000);
});

describe('crewdeck test', () => {
  /** The score table's data rows: task id → cells after the role. */
  function table(stdout: string): Map<string, string[]> {
    const rows = new Map<string, string[]>();
    for (const line of stdout.split('\n')) {
      const cells = line.trim().split(/\s{2,}/);
      if (cells[0] === 'draft' || cells[0] === 'polish') rows.set(cells[0], cells.slice(2));
    }
    return rows;
  }

  it('-n 3 prints a score table whose check column does not move when the evaluator scores do', async () => {
    const file = setupWorkspace();
    const a = await runCli(['test', file, '-n', '3', '--eval-model', 'judgeA', '--quiet'], { timeoutMs: 60_000 });
    const b = await runCli(['test', file, '-n', '3', '--eval-model', 'judgeB', '--quiet'], { timeoutMs: 60_000 });
    expect(a.code, describeResult(a)).toBe(0);
    expect(b.code, describeResult(b)).toBe(0);
    expect(a.stdout).toMatch(/Task\s+Role\s+#1\s+#2\s+#3\s+Avg\s+Checks\s+Duration\s+Tokens/);
    const ta = table(a.stdout);
    const tb = table(b.stdout);
    // Columns: #1 #2 #3 Avg Checks Duration Tokens. judgeA scores draft/polish alternately: 9 8 | 10 7 | 9 8.
    expect(ta.get('draft')!.slice(0, 4)).toEqual(['9.0', '10.0', '9.0', '9.3']);
    expect(ta.get('polish')!.slice(0, 4)).toEqual(['8.0', '7.0', '8.0', '7.7']);
    expect(tb.get('draft')!.slice(0, 4)).toEqual(['2.0', '1.0', '2.0', '1.7']);
    // The deterministic checks: the same in both, and what the outputs earn (1 of 2, 1 of 1).
    expect(ta.get('draft')![4]).toBe('5.0');
    expect(ta.get('polish')![4]).toBe('10.0');
    expect(tb.get('draft')![4]).toBe(ta.get('draft')![4]);
    expect(tb.get('polish')![4]).toBe(ta.get('polish')![4]);

    // An evaluator that fails leaves the scores out and says why; the checks do not depend on it.
    const mute = await runCli(['test', file, '-n', '1', '--eval-model', 'mute', '--quiet'], { timeoutMs: 60_000 });
    expect(mute.code, describeResult(mute)).toBe(0);
    expect(table(mute.stdout).get('draft')!.slice(0, 3)).toEqual(['—', '—', '5.0']);
    expect(mute.stdout).toMatch(/2 result\(s\) have no evaluator score — the evaluator could not score it: Script .* has no reply/);

    const json = parseSingleJson(await runCli(['test', file, '-n', '1', '--eval-model', 'judgeB', '--json'], { timeoutMs: 60_000 }));
    expect(json.status).toBe('completed');
    expect(json.session.iterations).toBe(1);
    expect(json.results.map((r: { taskId: string; score: number; checkScore: number }) => [r.taskId, r.score, r.checkScore])).toEqual([
      ['draft', 2, 5],
      ['polish', 3, 10],
    ]);
    expect(json.results[0].checks).toEqual([
      { type: 'contains', pass: true },
      { type: 'not_contains', pass: false, reason: 'output must not contain "TODO"' },
    ]);
    expect(json.tasks[0].totalTokens).toBeGreaterThan(0);
  }, 180_000);

  it('-n must be a positive whole number (exit 2)', async () => {
    const file = setupWorkspace();
    const r = await runCli(['test', file, '-n', '0']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('-n must be a whole number from 1 to 50');
  });
});
