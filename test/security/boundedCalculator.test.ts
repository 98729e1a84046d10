import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { RuntimeEvent } from '../../shared/events';
import { BoundedMath } from '../../runtime/tools/boundedMath';
import { ToolError } from '../../runtime/tools/tool';
import { describeResult, parseSingleJson, runCli, runEvents, scriptedCrew, tempDir, type TempWorkspace } from '../cli/cliHarness';

/** What a native crash or an uncaught error leaves on stderr. */
const STACK = /^\s+at \S|FATAL ERROR|Last few GCs|heap out of memory|JS stacktrace/m;

const math = new BoundedMath();
afterAll(() => math.dispose());

// No test here times the calculator: its speed is measured in bench:runtime (npm run bench:runtime -- --only calculator).
async function observation(expression: string, on = math): Promise<{ ok: boolean; text: string }> {
  try {
    return { ok: true, text: await on.evaluate(expression) };
  } catch (error) {
    expect(error).toBeInstanceOf(ToolError);
    return { ok: false, text: (error as Error).message };
  }
}

describe('the calculator is bounded in time and memory', () => {
  it('answers ordinary expressions once warm', async () => {
    await math.whenReady();
    // A function, so the child answers (plain arithmetic is answered in the host: plainArithmetic.test.ts).
    const first = await observation('2 * (3 + sqrt(16))');
    expect(first).toMatchObject({ ok: true, text: '14' });
    for (let i = 0; i < 20; i++) {
      const r = await observation(`${i} * 3 + sqrt(16)`);
      expect(r.text).toBe(String(i * 3 + 4));
    }
    expect(await observation('5 km to mile')).toMatchObject({ ok: true, text: '3.1068559611867 mile' });
    expect(await observation('a = 2; a * 3')).toMatchObject({ ok: true, text: '6' });
    expect(await observation('import({}, {})')).toMatchObject({ ok: false, text: 'cannot evaluate "import({}, {})": Function import is disabled' });
  });

  it('zeros(100000,100000) and range(1,1e8) are "result too large" observations (the guard, not the deadline)', async () => {
    await math.whenReady();
    for (const [expression, what] of [
      ['zeros(100000,100000)', 'zeros would have 1.00e+10 elements'],
      ['range(1,1e8)', 'range would have 1.00e+8 elements'],
      ['1:1e9', 'range would have 1.00e+9 elements'],
      ['identity(1e5)', 'identity would have 1.00e+10 elements'],
      ['resize([1], [1e5, 1e5])', 'resize would have 1.00e+10 elements'],
    ]) {
      const r = await observation(expression!);
      expect(r.ok, expression).toBe(false);
      // The guard's own words: had the child tried to build it, the answer would be the deadline's or the heap's.
      expect(r.text).toBe(`result too large: ${what} (at most 10000000)`);
    }
    // A result too big to read back is refused rather than formatted.
    expect((await observation('ones(400, 400)')).text).toMatch(/^result too large to show: 160000 elements/);
    expect(await observation('sum(ones(400, 400))')).toMatchObject({ ok: true, text: '1.6e+5' });
  });

  it('a bomb the guards do not know is stopped by the deadline; the next call still works', async () => {
    await math.whenReady();
    // Seconds of arithmetic in constant memory: only the deadline can stop it (an allocating bomb can meet
    // the heap limit first on a slow machine, which the next test covers).
    const r = await observation('combinations(2e9, 1e9)');
    expect(r).toMatchObject({ ok: false, text: 'calculation timed out after 1000 ms' });
    expect(await observation('1 + 1')).toMatchObject({ ok: true, text: '2' });
  }, 30_000);

  it('a calculation past the heap limit kills only the child: "result too large"', async () => {
    // Two 3000×3000 matrices and their sum (each within the element guard) need ~3 × 72 MB of numbers.
    const small = new BoundedMath({ timeoutMs: 30_000, memoryMb: 96, maxResultChars: 100_000, maxElements: 10_000_000, maxShownElements: 10 });
    try {
      await small.whenReady();
      const r = await observation('ones(3000, 3000) + ones(3000, 3000)', small);
      expect(r).toMatchObject({ ok: false, text: 'result too large: the calculation needs more than 96 MB' });
      expect(await observation('6 * 7', small)).toMatchObject({ ok: true, text: '42' });
    } finally {
      small.dispose();
    }
  }, 60_000);
});

let ws: TempWorkspace | undefined;
afterEach(() => {
  ws?.remove();
  ws = undefined;
});

describe('crewdeck run with calculator bombs', () => {
  it('each bomb is an observation; the run completes, exit 0, no stack on stderr', async () => {
    ws = tempDir('crewdeck-calc-');
    const call = (expression: string) => ({ toolCalls: [{ name: 'calculator', arguments: { expression } }] });
    const file = ws.write(
      'bombs.crew.json',
      scriptedCrew({
        agents: [
          {
            id: 'c',
            role: 'Calculator user',
            goal: 'Compute things',
            tools: [{ tool: 'calculator' }],
            llm: {
              provider: 'scripted',
              model: 'bomber',
              script: {
                // The first call needs mathjs (plain arithmetic is answered in the host), so it is the one
                // that waits for the child's start-up, not the first bomb.
                sequence: [call('sqrt(4)'), call('zeros(100000,100000)'), call('range(1,1e8)'), call('combinations(2e9, 1e9)'), 'Final Answer: survived'],
              },
            },
          },
        ],
        tasks: [{ id: 'compute', description: 'Compute', expectedOutput: 'A number', agentId: 'c' }],
      }),
    );
    const r = await runCli(['run', file, '--json'], { cwd: ws.dir, timeoutMs: 30_000 });
    expect(r.code, describeResult(r)).toBe(0);
    expect(r.stderr).not.toMatch(STACK);
    const body = parseSingleJson(r);
    expect(body.status).toBe('completed');
    expect(body.output).toContain('survived');

    const events = await runEvents(ws.dir, body.runId);
    const ended = events.filter((e): e is Extract<RuntimeEvent, { type: 'tool.completed' | 'tool.failed' }> => e.type === 'tool.completed' || e.type === 'tool.failed');
    expect(ended.map((e) => (e.type === 'tool.completed' ? e.result : e.error))).toEqual([
      '2',
      expect.stringContaining('result too large: zeros would have 1.00e+10 elements'),
      expect.stringContaining('result too large: range would have 1.00e+8 elements'),
      expect.stringContaining('calculation timed out after 1000 ms'),
    ]);
  }, 40_000);
});
