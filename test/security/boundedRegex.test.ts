import { afterEach, describe, expect, it } from 'vitest';
import { CrewDocumentSchema } from '../../shared/model/crew';
import { FlowDocumentSchema } from '../../shared/model/flow';
import { problemsFromZod, formatProblems } from '../../shared/model/problems';
import { compileLinearRegex, regexProblem } from '../../shared/model/regex';
import { evaluateCondition } from '../../runtime/crew/condition';
import { testPredicate } from '../../runtime/flow/predicate';
import { crew, ofType, runCrew, scripted } from '../support/crewHarness';
import { describeResult, runCli, scriptedCrew, tempDir, type TempWorkspace } from '../cli/cliHarness';

/** The classic catastrophic-backtracking input for `(a+)+$`: JavaScript's RegExp needs ~2^40 steps. */
const EVIL_PATTERN = '(a+)+$';
const EVIL_INPUT = `${'a'.repeat(40)}!`;

const cleanups: (() => void)[] = [];
let ws: TempWorkspace | undefined;
afterEach(() => {
  cleanups.splice(0).forEach((c) => c());
  ws?.remove();
  ws = undefined;
});

function crewProblems(doc: Record<string, unknown>): string[] {
  const parsed = CrewDocumentSchema.safeParse({ kind: 'crew', version: 1, id: 'c', name: 'C', ...doc });
  return parsed.success ? [] : formatProblems(problemsFromZod(parsed.error)).split('\n');
}

const oneTask = (task: Record<string, unknown>) => ({
  agents: [{ id: 'w', role: 'Writer', goal: 'write' }],
  tasks: [{ id: 't0', description: 'd', expectedOutput: 'e', agentId: 'w' }, { id: 't1', description: 'd', expectedOutput: 'e', agentId: 'w', ...task }],
});

describe('document regexes run on a linear-time engine', () => {
  it('(a+)+$ against 40 a’s and ! is decided in well under a second', () => {
    expect(compileLinearRegex(EVIL_PATTERN).test(EVIL_INPUT)).toBe(false);
    expect(compileLinearRegex(EVIL_PATTERN).test('a'.repeat(100_000))).toBe(true);
  });

  it('a regex guardrail on an evil output fails as a guardrail, quickly, and the run ends', async () => {
    const doc = crew({
      agents: [{ id: 'w', role: 'Writer', goal: 'write', llm: scripted({ default: EVIL_INPUT }) }],
      tasks: [{ id: 'post', description: 'Write', expectedOutput: 'a note', agentId: 'w', guardrails: [{ type: 'regex', pattern: EVIL_PATTERN }], guardrailMaxRetries: 1 }],
    });
    const { result, events, ws: workspace } = await runCrew(doc);
    cleanups.push(workspace.remove);
    expect(result.status).toBe('failed');
    expect(result.error).toMatchObject({ name: 'GuardrailExhausted' });
    expect(ofType(events, 'guardrail.failed').map((e) => e.reason)).toEqual([`output must match /${EVIL_PATTERN}/`, `output must match /${EVIL_PATTERN}/`]);
  });

  it('keeps the flags the schema allows: i, m, s and sticky y', () => {
    expect(compileLinearRegex('ship it', 'i').test('We SHIP IT today')).toBe(true);
    expect(compileLinearRegex('ship it').test('We SHIP IT today')).toBe(false);
    expect(compileLinearRegex('^done$', 'm').test('work\ndone\nmore')).toBe(true);
    expect(compileLinearRegex('^done$').test('work\ndone\nmore')).toBe(false);
    expect(compileLinearRegex('a.b', 's').test('a\nb')).toBe(true);
    expect(compileLinearRegex('a.b').test('a\nb')).toBe(false);
    expect(compileLinearRegex('b', 'y').test('ab')).toBe(false);
    expect(compileLinearRegex('a', 'gy').test('ab')).toBe(true);
    // JavaScript syntax that RE2 spells differently still works.
    expect(compileLinearRegex('(?<version>v\\d+)\\.\\u0030').test('release v1.0')).toBe(true);
    expect(compileLinearRegex('\\bSHIP IT\\b', 'u').test('SHIP IT')).toBe(true);
  });

  it('a pattern the engine cannot take is a validate problem naming the field and the construct', () => {
    expect(crewProblems(oneTask({ guardrails: [{ type: 'regex', pattern: '(\\w+) \\1' }] }))).toEqual([
      'tasks.1.guardrails.0.pattern: is not supported (linear-time engine): backreference \\1',
    ]);
    expect(crewProblems(oneTask({ guardrails: [{ type: 'regex', pattern: 'x', flags: 'i' }, { type: 'regex', pattern: '^(?=.*done)' }] }))).toEqual([
      'tasks.1.guardrails.1.pattern: is not supported (linear-time engine): lookahead (?=…)',
    ]);
    expect(crewProblems(oneTask({ condition: { type: 'regex', pattern: '(?<!not )ok' } }))).toEqual([
      'tasks.1.condition.pattern: is not supported (linear-time engine): negative lookbehind (?<!…)',
    ]);
    expect(regexProblem('(?<q>["\'])x\\k<q>')?.message).toBe('is not supported (linear-time engine): backreference \\k<q>');
    expect(regexProblem('(?!no)')?.message).toBe('is not supported (linear-time engine): negative lookahead (?!…)');
    expect(regexProblem('(?<=\\$)\\d+')?.message).toBe('is not supported (linear-time engine): lookbehind (?<=…)');
    expect(regexProblem('[\\p{L}--[a-z]]', 'v')?.message).toBe('is not supported (linear-time engine): set operation or nested class (v flag)');
    expect(regexProblem('a{1000}{1000}')?.message).toMatch(/^is not (a valid regular expression|supported \(linear-time engine\))/);
    // What JavaScript itself refuses keeps its own message; ordinary patterns pass.
    expect(regexProblem('(')?.message).toMatch(/^is not a valid regular expression/);
    expect(regexProblem('[1\\]2]')).toBeUndefined();
    expect(regexProblem('^v\\d+\\.\\d+$', 'i')).toBeUndefined();
  });

  it('flow `matches` rules are checked and run the same way', () => {
    const flow = (value: unknown) =>
      FlowDocumentSchema.safeParse({
        kind: 'flow',
        version: 1,
        id: 'f',
        name: 'F',
        methods: [
          { id: 'start', name: 'start', trigger: { start: true }, body: { type: 'set_state', set: { a: 'x' } } },
          { id: 'route', name: 'route', trigger: { listen: 'start' }, routes: ['yes', 'no'], body: { type: 'rules', rules: [{ when: { path: 'input', op: 'matches', value }, route: 'yes' }], default: 'no' } },
        ],
      });
    const refused = flow('(a)\\1');
    expect(refused.success).toBe(false);
    expect(formatProblems(problemsFromZod(refused.error!))).toBe('methods.1.body.rules.0.when.value: is not supported (linear-time engine): backreference \\1');
    expect(flow('^ok').success).toBe(true);
    expect(testPredicate({ path: 'input', op: 'matches', value: EVIL_PATTERN }, { state: {}, input: EVIL_INPUT })).toBe(false);
  });

  it('a regex task condition on an evil previous output is decided quickly', async () => {
    expect(await evaluateCondition({ type: 'regex', pattern: EVIL_PATTERN }, EVIL_INPUT)).toBe(false);
  });
});

describe('crewdeck validate and run with regexes', () => {
  it('validate refuses a backreference guardrail with exit 2 naming the field', async () => {
    ws = tempDir('crewdeck-regex-');
    const file = ws.write('bad.crew.json', scriptedCrew(oneTask({ guardrails: [{ type: 'regex', pattern: '(\\w+) \\1' }] })));
    const r = await runCli(['validate', file]);
    expect(r.code, describeResult(r)).toBe(2);
    expect(r.stdout + r.stderr).toContain('tasks.1.guardrails.0.pattern: is not supported (linear-time engine): backreference \\1');
  });

  it('run with (a+)+$ on 40 a’s and ! ends with a failed guardrail, not a hang', async () => {
    ws = tempDir('crewdeck-regex-');
    const file = ws.write(
      'evil.crew.json',
      scriptedCrew({
        agents: [{ id: 'w', role: 'Writer', goal: 'write', llm: { provider: 'scripted', model: 'evil', script: { default: { content: EVIL_INPUT } } } }],
        tasks: [{ id: 'post', description: 'Write', expectedOutput: 'a note', agentId: 'w', guardrails: [{ type: 'regex', pattern: EVIL_PATTERN }], guardrailMaxRetries: 0 }],
      }),
    );
    const r = await runCli(['run', file, '--json'], { cwd: ws.dir, timeoutMs: 10_000 });
    expect(r.code, describeResult(r)).toBe(1);
    const body = JSON.parse(r.stdout);
    expect(body.status).toBe('failed');
    expect(body.error).toContain(`output must match /${EVIL_PATTERN}/`);
  }, 15_000);
});
