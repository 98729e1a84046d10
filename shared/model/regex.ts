import { RE2JS } from 're2js';
import { z } from 'zod';

/**
 * Document regexes (guardrails, task conditions, flow `matches` rules) run on RE2JS, a linear-time
 * engine with RE2 semantics: matching costs time proportional to the input, so no pattern can hang a
 * run on a model's output the way `(a+)+$` hangs JavaScript's backtracking RegExp. The price is RE2's
 * syntax: no backreferences and no lookaround. Validation compiles every pattern with the same engine
 * that runs it, so a pattern it cannot take is a `validate` problem rather than a run-time surprise.
 */

/** A regular expression given as `pattern` + optional `flags`, checked by compiling both together. */
export function regexFields() {
  return {
    pattern: z.string().min(1),
    flags: z.string().regex(/^[dgimsuvy]*$/, 'regex flags may only use d g i m s u v y').optional(),
  };
}

export function checkRegex(value: { pattern: string; flags?: string }, ctx: z.RefinementCtx): void {
  const problem = regexProblem(value.pattern, value.flags);
  if (problem) ctx.addIssue({ code: 'custom', path: [problem.field], message: problem.message });
}

/** Past this RE2 program size a match, though linear, costs too much per input character. */
export const MAX_REGEX_PROGRAM_SIZE = 2000;

export interface RegexProblem {
  field: 'pattern' | 'flags';
  message: string;
}

/** Why `pattern`/`flags` cannot be used, or undefined when the linear-time engine takes them. */
export function regexProblem(pattern: string, flags = ''): RegexProblem | undefined {
  try {
    // JavaScript's parser first: the schema's flags mean what they mean in JavaScript.
    new RegExp(pattern, flags);
  } catch (error) {
    const message = (error as Error).message;
    return { field: /flag/i.test(message) ? 'flags' : 'pattern', message: `is not a valid regular expression: ${message}` };
  }
  try {
    compileLinearRegex(pattern, flags);
    return undefined;
  } catch (error) {
    return { field: 'pattern', message: (error as Error).message };
  }
}

/** A pattern the linear-time engine cannot run; the message names the construct. */
export class RegexNotSupported extends Error {
  override name = 'RegexNotSupported';
  constructor(
    readonly pattern: string,
    readonly reason: string,
  ) {
    super(`is not supported (linear-time engine): ${reason}`);
  }
}

/** A compiled document regex. `test` is linear in the input's length. */
export interface LinearRegex {
  test(input: string): boolean;
  /** The first match's groups (0: the whole match; an unmatched group is ''), or undefined without a match. */
  groups(input: string): string[] | undefined;
}

const cache = new Map<string, LinearRegex>();
const CACHE_SIZE = 256;

/**
 * Compiles a JavaScript-syntax `pattern` with JavaScript `flags` for the linear-time engine.
 * `i`, `m` and `s` keep their meaning, `y` anchors at the start; `g`, `d`, `u` and `v` do not change
 * whether a pattern matches. Throws `RegexNotSupported` for what RE2 cannot take.
 */
export function compileLinearRegex(pattern: string, flags = ''): LinearRegex {
  const key = `${flags}/${pattern}`;
  const cached = cache.get(key);
  if (cached) return cached;
  const unsupported = unsupportedConstruct(pattern, flags.includes('v'));
  if (unsupported) throw new RegexNotSupported(pattern, unsupported);
  let compiled: RE2JS;
  try {
    const translated = RE2JS.translateRegExp(pattern);
    compiled = RE2JS.compile(flags.includes('y') ? `\\A(?:${translated})` : translated, engineFlags(flags));
  } catch (error) {
    throw new RegexNotSupported(pattern, (error as Error).message.replace(/^error parsing regexp: /, ''));
  }
  const size = compiled.programSize();
  if (size > MAX_REGEX_PROGRAM_SIZE) {
    throw new RegexNotSupported(pattern, `too large (program size ${size}, at most ${MAX_REGEX_PROGRAM_SIZE}); use smaller repeat counts`);
  }
  const regex: LinearRegex = {
    test: (input) => compiled.test(input),
    groups: (input) => {
      const m = compiled.matcher(input);
      if (!m.find()) return undefined;
      return Array.from({ length: m.groupCount() + 1 }, (_, i) => m.group(i) ?? '');
    },
  };
  if (cache.size >= CACHE_SIZE) cache.clear();
  cache.set(key, regex);
  return regex;
}

function engineFlags(flags: string): number {
  let out = 0;
  if (flags.includes('i')) out |= RE2JS.CASE_INSENSITIVE;
  if (flags.includes('m')) out |= RE2JS.MULTILINE;
  if (flags.includes('s')) out |= RE2JS.DOTALL;
  return out;
}

/**
 * The first construct of a (JavaScript-valid) pattern that needs backtracking, named for the user.
 * Scanned here rather than left to RE2's parser, whose JavaScript translation would turn `\k<name>`
 * into the literal `k<name>` and whose messages name Perl syntax.
 */
function unsupportedConstruct(pattern: string, unicodeSets: boolean): string | undefined {
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') {
      const next = pattern[i + 1] ?? '';
      if (!inClass && /[1-9]/.test(next)) return `backreference \\${/^\d+/.exec(pattern.slice(i + 1))?.[0]}`;
      if (!inClass && next === 'k' && pattern[i + 2] === '<') return `backreference ${pattern.slice(i, pattern.indexOf('>', i) + 1 || undefined)}`;
      if (inClass && unicodeSets && next === 'q') return 'string literal \\q{…} in a class (v flag)';
      i++;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      else if (unicodeSets && (c === '[' || ((c === '&' || c === '-') && pattern[i + 1] === c))) return 'set operation or nested class (v flag)';
      continue;
    }
    if (c === '[') inClass = true;
    else if (c === '(' && pattern[i + 1] === '?') {
      const kind = pattern.slice(i + 2, i + 4);
      if (kind.startsWith('=')) return 'lookahead (?=…)';
      if (kind.startsWith('!')) return 'negative lookahead (?!…)';
      if (kind === '<=') return 'lookbehind (?<=…)';
      if (kind === '<!') return 'negative lookbehind (?<!…)';
    }
  }
  return undefined;
}
