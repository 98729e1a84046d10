import { BoundedMath } from './boundedMath';
import { defineTool } from './tool';

/** One calculator child per host, started when a run is about to use the tool (see boundedMath.ts). */
const math = new BoundedMath();

/** Long-lived hosts (the app) start the calculator in the background, so the first calculation in a run is not slow. */
export function warmUpCalculator(): void {
  math.warmUp();
}

/** Resolves once the calculator can answer at once (benchmarks). */
export function calculatorReady(): Promise<void> {
  return math.whenReady();
}

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
  warmUp: warmUpCalculator,
  execute(args, ctx) {
    return math.evaluate(args.expression as string, ctx.signal);
  },
});
