import type { MathJsInstance } from 'mathjs';
import { defineTool, ToolError } from './tool';

/**
 * A private mathjs instance with the functions its security guide says to disable
 * (https://mathjs.org/docs/expressions/security.html): those that change the instance (import,
 * createUnit, reviver) and those that parse or manipulate expression trees (evaluate, parse, compile,
 * simplify, derivative, resolve). Expressions are parsed by mathjs itself; nothing reaches eval.
 * mathjs takes about a second to load, so it is loaded on the first calculation, not at startup.
 */
let instance: Promise<{ math: MathJsInstance; evaluate: MathJsInstance['evaluate'] }> | undefined;

function limitedMath() {
  instance ??= import('mathjs').then(({ all, create }) => {
    const math = create(all, {});
    const evaluate = math.evaluate;
    const DISABLED = ['import', 'createUnit', 'reviver', 'evaluate', 'parse', 'compile', 'simplify', 'derivative', 'resolve'];
    math.import(
      Object.fromEntries(
        DISABLED.map((name) => [
          name,
          () => {
            throw new Error(`Function ${name} is disabled`);
          },
        ]),
      ),
      { override: true },
    );
    return { math, evaluate };
  });
  return instance;
}

/** Long-lived hosts (the app) load mathjs in the background, so the first calculation in a run is not slow. */
export function warmUpCalculator(): void {
  void limitedMath();
}

const FORMAT = { precision: 14 };

export const calculatorTool = defineTool({
  name: 'calculator',
  description:
    'Evaluate a math expression exactly (mathjs syntax) and return the result. Supports arithmetic, ' +
    'parentheses, powers (^), functions such as sqrt, log, sin, round, mean, matrices like [1, 2], ' +
    'and unit conversions such as "5 km to mile".',
  parameters: {
    type: 'object',
    properties: {
      expression: { type: 'string', minLength: 1, description: 'The expression, e.g. "2 * (3 + 4)" or "sqrt(16)".' },
    },
    required: ['expression'],
    additionalProperties: false,
  },
  async execute(args) {
    const expression = args.expression as string;
    const { math, evaluate } = await limitedMath();
    let result: unknown;
    try {
      result = evaluate(expression);
    } catch (error) {
      throw new ToolError(`cannot evaluate ${JSON.stringify(expression)}: ${(error as Error).message}`);
    }
    return formatResult(math, result, expression);
  },
});

function formatResult(math: MathJsInstance, result: unknown, expression: string): string {
  if (result === undefined) throw new ToolError(`${JSON.stringify(expression)} has no value`);
  if (typeof result === 'function') {
    throw new ToolError(`${JSON.stringify(expression)} defines a function; give an expression with a value`);
  }
  // Several statements ("a = 2; a * 3") give a ResultSet: one line per visible value.
  if (math.isResultSet(result)) {
    return (result.entries as unknown[]).map((entry) => math.format(entry, FORMAT)).join('\n');
  }
  return math.format(result, FORMAT);
}
