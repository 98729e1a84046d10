import { all, create } from 'mathjs';
import { defineTool, ToolError } from './tool';

/**
 * A private mathjs instance with the functions its security guide says to disable
 * (https://mathjs.org/docs/expressions/security.html): those that change the instance (import,
 * createUnit, reviver) and those that parse or manipulate expression trees (evaluate, parse, compile,
 * simplify, derivative, resolve). Expressions are parsed by mathjs itself; nothing reaches eval.
 */
const math = create(all, {});
const limitedEvaluate = math.evaluate;

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
    let result: unknown;
    try {
      result = limitedEvaluate(expression);
    } catch (error) {
      throw new ToolError(`cannot evaluate ${JSON.stringify(expression)}: ${(error as Error).message}`);
    }
    return formatResult(result, expression);
  },
});

function formatResult(result: unknown, expression: string): string {
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
