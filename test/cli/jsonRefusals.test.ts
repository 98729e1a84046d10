import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeResult, runCli, tempExamples, type TempWorkspace } from './cliHarness';

// Issue 18: with --json, a refused command answers {"status":"invalid","error":…} on stdout, as `run` does —
// not only `error: …` on stderr and an empty stdout.
let ws: TempWorkspace;
beforeAll(async () => {
  ws = tempExamples();
  // One finished run, so the workspace has a database and "no such run" is the refusal.
  const r = await runCli(['run', ws.path('research-brief.crew.json'), '--json'], { cwd: ws.dir });
  expect(r.code, describeResult(r)).toBe(0);
}, 30_000);
afterAll(() => ws?.remove());

describe('crewdeck … --json refusals', () => {
  it('runs show/events/cancel/diff of an unknown run, knowledge remove of an unknown source, import and export of a missing path', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['runs', 'show', 'run_nope', '--workspace', ws.dir], /no run with id "run_nope"/],
      [['runs', 'events', 'run_nope', '--workspace', ws.dir], /no run with id "run_nope"/],
      [['runs', 'cancel', 'run_nope', '--workspace', ws.dir], /no run with id "run_nope"/],
      [['runs', 'diff', 'run_a', 'run_b', '--workspace', ws.dir], /no run with id "run_a"/],
      [['knowledge', 'remove', 'nope.md', '--workspace', ws.dir], /no knowledge source "nope\.md"/],
      [['import', ws.path('no-such-project')], /^CrewAiProjectNotFound$/],
      [['export', ws.path('no-such.crew.json'), '--to', 'crewai', ws.path('out')], /^DocumentInvalid$/],
    ];
    for (const [args, error] of cases) {
      const r = await runCli([...args, '--json'], { cwd: ws.dir });
      expect(r.code, describeResult(r)).toBe(2);
      const answer = JSON.parse(r.stdout);
      expect(answer.status, args.join(' ')).toBe('invalid');
      expect(answer.error, args.join(' ')).toMatch(error);
    }
  }, 90_000);
});
