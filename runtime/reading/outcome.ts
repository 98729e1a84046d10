import type { ReadAs } from '../../shared/events';
import { readJson } from './jsonValue';

/** A reply longer than this is not "an outcome name" (it is still read as JSON, a line or words). */
const MAX_NAME_REPLY = 1000;

export type OutcomeReading =
  | { ok: true; outcome: string; reason?: string; readAs: ReadAs[] }
  /** Ambiguous (two outcomes named) or nothing fits: the caller takes its default outcome. */
  | { ok: false; problem: string };

/**
 * Maps a model's reply to one of the declared outcomes. Accepted, case, whitespace and quotes ignored:
 * an exact outcome name; `Outcome: X`; JSON with `outcome` (fenced or among prose too); a reply whose
 * only declared outcome word is X. Two outcomes named, or none, is no reading.
 */
export function readOutcome(reply: string, outcomes: readonly string[]): OutcomeReading {
  const text = reply.trim();
  if (text === '') return { ok: false, problem: 'the model\'s answer is empty' };
  const exact = outcomes.find((o) => o === text);
  if (exact) return { ok: true, outcome: exact, readAs: [] };
  const named = text.length <= MAX_NAME_REPLY ? find(outcomes, bare(text)) : undefined;
  if (named) return { ok: true, outcome: named, readAs: ['outcome-name'] };

  const json = readJson(text);
  if (json.ok && json.value !== null && typeof json.value === 'object' && !Array.isArray(json.value)) {
    const { outcome, reason } = json.value as { outcome?: unknown; reason?: unknown };
    if (typeof outcome === 'string') {
      const match = find(outcomes, bare(outcome));
      if (!match) return { ok: false, problem: `the model's answer names "${outcome}", which is not one of the outcomes (${outcomes.join(', ')})` };
      return { ok: true, outcome: match, reason: typeof reason === 'string' && reason.trim() ? reason.trim() : undefined, readAs: json.readAs };
    }
  }

  const line = outcomeLine(text);
  if (line !== undefined) {
    // The value is the name, or begins with it ("Outcome: approved — they agreed"); the longest name wins.
    const value = bare(line.slice(0, MAX_NAME_REPLY));
    const match = find(outcomes, value) ?? outcomes.filter((o) => value.startsWith(`${bare(o)} `)).sort((a, b) => b.length - a.length)[0];
    if (match) return { ok: true, outcome: match, readAs: ['outcome-line'] };
  }

  const mentioned = outcomes.filter((o) => mentions(text, o));
  const [only] = mentioned;
  if (only !== undefined && mentioned.length === 1 && negated(text, only)) {
    return { ok: false, problem: `the model's answer negates the outcome "${only}"` };
  }
  if (only !== undefined && mentioned.length === 1) return { ok: true, outcome: only, readAs: ['outcome-word'] };
  if (mentioned.length > 1) return { ok: false, problem: `the model's answer names more than one outcome (${mentioned.join(', ')})` };
  return { ok: false, problem: 'the model\'s answer named no outcome' };
}

/** Lower-case, without quotes, emphasis, surrounding punctuation; `_`, `-` and spaces alike. */
function bare(text: string): string {
  const plain = text.replace(/["'`“”‘’*]/g, '').replace(/[\s_-]+/g, ' ');
  // Trimmed by index, not with /[…]+$/ (which is quadratic on a long run of such characters).
  let start = 0;
  let end = plain.length;
  while (start < end && EDGE.test(plain[start]!)) start++;
  while (end > start && EDGE.test(plain[end - 1]!)) end--;
  return plain.slice(start, end).toLowerCase();
}

const EDGE = /[\s.,;:!?()[\]]/;

/**
 * The value of the first `Outcome: X` (or `**Outcome**: X`, `outcome = X`) line. Read line by line with
 * index scans: model output is untrusted, and regexes with adjacent optional runs backtrack on it.
 */
function outcomeLine(text: string): string | undefined {
  for (const line of text.split('\n')) {
    let i = skip(line, 0);
    if (line.slice(i, i + 7).toLowerCase() !== 'outcome') continue;
    i = skip(line, i + 7);
    if (line[i] !== ':' && line[i] !== '=') continue;
    const value = line.slice(skip(line, i + 1));
    if (value !== '') return value;
  }
  return undefined;
}

/** Past whitespace and markdown emphasis stars. */
function skip(line: string, at: number): number {
  let i = at;
  while (i < line.length && (line[i] === '*' || /\s/.test(line[i]!))) i++;
  return i;
}

function find(outcomes: readonly string[], key: string): string | undefined {
  return key === '' ? undefined : outcomes.find((o) => bare(o) === key);
}

/** The outcome as a whole word (or words) of the text. */
function mentions(text: string, outcome: string): boolean {
  const words = bare(outcome).split(' ').map(escapeRegExp).join('[\\s_-]+');
  return new RegExp(`(?<![\\p{L}\\p{N}_])${words}(?![\\p{L}\\p{N}_])`, 'iu').test(text);
}

/**
 * "not approved", "isn't yet approved", "never approved": the only outcome word, negated, names no
 * outcome (taking it would route "not approved" to approved). At most one word may stand between.
 */
function negated(text: string, outcome: string): boolean {
  const words = bare(outcome).split(' ').map(escapeRegExp).join('[\\s_-]+');
  return new RegExp(`(?:(?<![\\p{L}])(?:not|never|no)|n[’']t)[\\s,]+(?:\\p{L}+[\\s,]+)?${words}(?![\\p{L}\\p{N}_])`, 'iu').test(text);
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
