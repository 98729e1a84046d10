import { describe, expect, it } from 'vitest';
import { calculatorTool } from '../../runtime/tools/calculator';
import { ToolError, type ToolContext } from '../../runtime/tools/tool';

const ctx: ToolContext = { workspace: '/nonexistent', signal: new AbortController().signal, agentRole: 'Analyst', config: {} };
const calc = (expression: string) => calculatorTool.execute({ expression }, ctx);

describe('calculator', () => {
  it('evaluates arithmetic and functions', async () => {
    expect(await calc('2 * (3 + 4)')).toBe('14');
    expect(await calc('sqrt(16)')).toBe('4');
    expect(await calc('2^10 / 4')).toBe('256');
  });

  it('formats numbers with 14 significant digits', async () => {
    expect(await calc('0.1 + 0.2')).toBe('0.3');
    expect(await calc('1/3')).toBe('0.33333333333333');
  });

  it('converts units', async () => {
    expect(await calc('5 cm to inch')).toBe('1.9685039370079 inch');
    expect(await calc('2 km + 500 m to m')).toBe('2500 m');
  });

  it('returns one line per value for several statements', async () => {
    expect(await calc('a = 3; a * 2')).toBe('6');
    expect(await calc('a = 3\nb = a * 2\nb + 1')).toBe('3\n6\n7');
  });

  it.each([
    ['import({ pi: 3 }, { override: true })', 'import'],
    ['evaluate("1 + 1")', 'evaluate'],
    ['createUnit("furlongish", "201 m")', 'createUnit'],
    ['parse("1 + 1")', 'parse'],
    ['compile("1 + 1")', 'compile'],
    ['simplify("x + x")', 'simplify'],
    ['derivative("x^2", "x")', 'derivative'],
    ['resolve(1)', 'resolve'],
    ['reviver("a", 1)', 'reviver'],
  ])('refuses %s', async (expression, fn) => {
    const error = await calc(expression).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ToolError);
    expect((error as Error).message).toContain(`Function ${fn} is disabled`);
  });

  it('keeps the disabled functions disabled across calls (import had no effect)', async () => {
    await calc('import({ pi: 3 }, { override: true })').catch(() => undefined);
    expect(await calc('round(pi, 4)')).toBe('3.1416');
  });

  it("reports a bad expression with mathjs's message", async () => {
    await expect(calc('1 +')).rejects.toThrow('cannot evaluate "1 +": Unexpected end of expression (char 4)');
    await expect(calc('foo(2)')).rejects.toThrow('Undefined function foo');
  });

  it('refuses results that are not values', async () => {
    await expect(calc('f(x) = x^2')).rejects.toThrow(/defines a function/);
  });
});
