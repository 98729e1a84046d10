/**
 * The program of the calculator's child process (`node -e`), kept as source text so that it runs the
 * same from the TypeScript sources, the CLI bundle and the Electron bundle: none of them has to ship
 * a separate entry file. It is plain CommonJS that needs nothing but mathjs, whose entry file comes in
 * CREWDECK_MATHJS.
 *
 * The mathjs instance disables what its security guide says to disable
 * (https://mathjs.org/docs/expressions/security.html): functions that change the instance (import,
 * createUnit, reviver) and those that parse or manipulate expression trees (evaluate, parse, compile,
 * simplify, derivative, resolve). Expressions are parsed by mathjs itself; nothing reaches eval.
 * After loading, it touches every function once (mathjs creates them lazily, some take ~100 ms), then
 * says `{ ready: true }`; each `{ id, expression }` gets one `{ id, ok, text | message }` back.
 */
export const BOUNDED_MATH_CHILD_SOURCE = String.raw`
'use strict';
process.on('disconnect', () => process.exit(0));
const { create, all } = require(process.env.CREWDECK_MATHJS);
const math = create(all, {});
const evaluate = math.evaluate;
const MAX_CHARS = Number(process.env.CREWDECK_MATH_MAX_CHARS);
const MAX_ELEMENTS = Number(process.env.CREWDECK_MATH_MAX_ELEMENTS);
const MAX_SHOWN = Number(process.env.CREWDECK_MATH_MAX_SHOWN);

// Functions that build a matrix from a few numbers refuse sizes past MAX_ELEMENTS at once, so the
// common bombs are an answer, not a dead child (the heap limit and the deadline catch the rest).
class TooLarge extends Error {}
const toNumber = (x) => (x && typeof x.toNumber === 'function' ? x.toNumber() : Number(x && x.valueOf ? x.valueOf() : x));
// A size argument: a number, an array of numbers or a matrix of them.
const sizeOf = (x) => (x && typeof x.size === 'function' ? x.valueOf() : Array.isArray(x) ? x : [x]);
function checkCount(count, what) {
  if (!(count <= MAX_ELEMENTS)) throw new TooLarge(what + ' would have ' + (Number.isFinite(count) ? count.toExponential(2) : count) + ' elements');
}
function checkSizes(sizes, what) {
  checkCount(sizes.reduce((product, n) => product * Math.abs(toNumber(n)), 1), what);
}
const sizeArgs = (args) => args.filter((a) => typeof a !== 'string' && typeof a !== 'boolean');
function rangeCount(args) {
  if (typeof args[0] === 'string') {
    const parts = args[0].split(':').map(Number);
    args = parts.length === 3 ? [parts[0], parts[2], parts[1]] : parts;
  }
  const [start, end, step = 1] = args.filter((a) => typeof a !== 'boolean').map(toNumber);
  return Math.abs((end - start) / step);
}
const guarded = {
  zeros: (args) => checkSizes(args.length === 1 ? sizeOf(args[0]) : sizeArgs(args), 'zeros'),
  ones: (args) => checkSizes(args.length === 1 ? sizeOf(args[0]) : sizeArgs(args), 'ones'),
  identity: (args) => checkSizes(args.length === 1 && sizeOf(args[0]).length === 1 ? [args[0], args[0]] : args.length === 1 ? sizeOf(args[0]) : sizeArgs(args), 'identity'),
  range: (args) => checkCount(rangeCount(args), 'range'),
  resize: (args) => checkSizes(sizeOf(args[1]), 'resize'),
  random: (args) => Array.isArray(args[0]) || (args[0] && typeof args[0].size === 'function') ? checkSizes(sizeOf(args[0]), 'random') : undefined,
  randomInt: (args) => Array.isArray(args[0]) || (args[0] && typeof args[0].size === 'function') ? checkSizes(sizeOf(args[0]), 'randomInt') : undefined,
};
math.import(
  Object.fromEntries(
    Object.entries(guarded).map(([name, check]) => {
      const original = math[name];
      return [name, (...args) => { check(args); return original(...args); }];
    }),
  ),
  { override: true },
);

const DISABLED = ['import', 'createUnit', 'reviver', 'evaluate', 'parse', 'compile', 'simplify', 'derivative', 'resolve'];
math.import(
  Object.fromEntries(DISABLED.map((name) => [name, () => { throw new Error('Function ' + name + ' is disabled'); }])),
  { override: true },
);
for (const name of Object.keys(math)) {
  try { void math[name]; } catch {}
}
const FORMAT = { precision: 14 };
// The parser and formatter have their own first-call costs; pay them before saying ready.
for (const expression of ['1 + 2 * 3', 'sqrt(16) / 3', '5 km to mile', 'mean([1, 2, 3])', 'a = 2; a * 3', '[1, 2] * 2']) {
  describe(expression);
}

function describe(expression) {
  let result;
  try {
    result = evaluate(expression);
  } catch (error) {
    if (error instanceof TooLarge) return { ok: false, message: 'result too large: ' + error.message + ' (at most ' + MAX_ELEMENTS + ')' };
    return { ok: false, message: 'cannot evaluate ' + JSON.stringify(expression) + ': ' + error.message };
  }
  if (result === undefined) return { ok: false, message: JSON.stringify(expression) + ' has no value' };
  if (typeof result === 'function') {
    return { ok: false, message: JSON.stringify(expression) + ' defines a function; give an expression with a value' };
  }
  const values = math.isResultSet(result) ? result.entries : [result];
  const elements = values.reduce((n, v) => n + (math.isMatrix(v) || Array.isArray(v) ? math.size(v).valueOf().reduce((a, b) => a * b, 1) : 1), 0);
  if (elements > MAX_SHOWN) return { ok: false, message: 'result too large to show: ' + elements + ' elements (at most ' + MAX_SHOWN + '); ask for a summary such as sum(...), size(...) or a subset' };
  // Several statements ("a = 2; a * 3") give a ResultSet: one line per visible value.
  const text = math.isResultSet(result)
    ? result.entries.map((entry) => math.format(entry, FORMAT)).join('\n')
    : math.format(result, FORMAT);
  if (text.length > MAX_CHARS) return { ok: false, message: 'result too large: ' + text.length + ' characters (at most ' + MAX_CHARS + ')' };
  return { ok: true, text };
}

process.on('message', (request) => {
  process.send({ id: request.id, ...describe(String(request.expression)) });
});
process.send({ ready: true });
`;
