import { jsonrepair } from 'jsonrepair';
import type { z } from 'zod';
import type { ReadAs } from '../../shared/events';
import { problemsFromZod } from '../../shared/model/problems';
import { compileSchema, describeSchemaErrors } from '../validation/jsonSchema';

/** A JSON value read from a model's reply, and how (when not the literal reply). */
export type JsonReading<T = unknown> = { ok: true; value: T; readAs: ReadAs[] } | { ok: false; reason: string };

/** Replies larger than this are not repaired (jsonrepair's time grows with the text; model output is untrusted). */
export const MAX_REPAIR_CHARS = 256 * 1024;
/** JSON nested deeper than this is refused before it is parsed (deep values overflow the stack later). */
export const MAX_JSON_DEPTH = 512;
/** At most this many fences, and bracketed values among prose, are tried: the first ones hold the answer. */
const MAX_FENCES = 32;
const MAX_VALUES = 256;

/**
 * The first complete JSON value in a model's reply. In order: the whole reply; the contents of a code
 * fence; the first balanced `{…}` / `[…]` among prose and markdown emphasis ("Sure! Here is…",
 * `**JSON:**`). Only then is malformed JSON repaired (jsonrepair), so a valid value is never "repaired"
 * into another. A failure reads as a requirement naming what was wrong.
 */
export function readJson(text: string): JsonReading {
  const whole = text.trim();
  if (whole === '') return { ok: false, reason: 'output must be valid JSON (the reply is empty)' };
  const depth = maxNesting(whole);
  if (depth > MAX_JSON_DEPTH) return { ok: false, reason: `output must be valid JSON nested at most ${MAX_JSON_DEPTH} levels deep (the reply nests ${depth} brackets)` };
  const strict = parseStrict(whole);
  if (strict.ok) return { ok: true, value: strict.value, readAs: [] };

  const fenced = fencedBlocks(whole, MAX_FENCES);
  const unfenced = fenced.length > 0 ? fenced : [{ body: withoutOpenFence(whole), fenced: whole.startsWith('```') }];
  const candidates: { text: string; readAs: ReadAs[] }[] = [];
  for (const block of unfenced) {
    const fenceMark: ReadAs[] = block.fenced ? ['fenced-json'] : [];
    const body = block.body.trim();
    candidates.push({ text: body, readAs: fenceMark });
    for (const slice of balancedValues(body, MAX_VALUES)) {
      if (slice !== body) candidates.push({ text: slice, readAs: [...fenceMark, 'json-in-prose'] });
    }
  }
  for (const c of candidates.slice(0, MAX_VALUES)) {
    const parsed = parseStrict(c.text);
    if (parsed.ok) return { ok: true, value: parsed.value, readAs: c.readAs };
  }
  // Nothing parsed as it is: repair the first reply (or fence) body that holds an object or array.
  const starts = candidates
    .filter((c) => !c.readAs.includes('json-in-prose'))
    .map((c) => ({ body: c.text, from: fromFirstBracket(c.text), readAs: c.readAs }))
    .filter((c) => c.from !== '');
  const repairable = starts.filter((c) => c.from.length <= MAX_REPAIR_CHARS);
  let budget = MAX_REPAIR_CHARS; // all repairs together, so many fences cannot multiply the time
  for (const c of repairable) {
    budget -= c.from.length;
    if (budget < 0) break;
    try {
      const value: unknown = JSON.parse(jsonrepair(c.from));
      if (value !== null && typeof value === 'object') {
        const prose: ReadAs[] = c.from !== c.body ? ['json-in-prose'] : [];
        return { ok: true, value, readAs: [...c.readAs, ...prose, 'repaired-json'] };
      }
    } catch {
      // try the next candidate
    }
  }
  if (starts.length === 0) return { ok: false, reason: `output must be valid JSON (the reply holds no JSON object or array; it begins "${preview(whole)}")` };
  if (repairable.length === 0) {
    return { ok: false, reason: `output must be valid JSON (${strict.error}; a reply over ${MAX_REPAIR_CHARS} characters is not repaired)` };
  }
  return { ok: false, reason: `output must be valid JSON (${strict.error})` };
}

/** `readJson`, then the value must match a JSON Schema (a task's or a flow method's output schema). */
export function readJsonMatching(text: string, schema: Record<string, unknown> | undefined): JsonReading {
  const read = readJson(text);
  if (!read.ok || !schema) return read;
  const validate = compileSchema(schema);
  if (validate(read.value)) return read;
  return { ok: false, reason: `output JSON must match the task's schema: ${describeSchemaErrors(validate.errors)}` };
}

/** `readJson`, then the value must have the shape the caller expects (a zod schema). */
export function readJsonShaped<T>(text: string, shape: z.ZodType<T>): JsonReading<T> {
  const read = readJson(text);
  if (!read.ok) return read;
  const checked = shape.safeParse(read.value);
  if (checked.success) return { ok: true, value: checked.data, readAs: read.readAs };
  const problems = problemsFromZod(checked.error).map((p) => `${p.path || '(root)'}: ${p.message}`).join('; ');
  return { ok: false, reason: `the JSON does not match the expected shape: ${problems}` };
}

function parseStrict(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
}

/**
 * The bodies of the code fences in the text, in order: an opening ``` with an optional language tag,
 * up to the next ```. A scan with indexOf, linear in the text (no backtracking on runs of backticks).
 */
function fencedBlocks(text: string, limit: number): { body: string; fenced: boolean }[] {
  const blocks: { body: string; fenced: boolean }[] = [];
  let from = 0;
  while (blocks.length < limit) {
    const open = text.indexOf('```', from);
    if (open < 0) break;
    const bodyStart = afterFenceInfo(text, open + 3);
    const close = text.indexOf('```', bodyStart);
    if (close < 0) break;
    blocks.push({ body: text.slice(bodyStart, close), fenced: true });
    from = close + 3;
  }
  return blocks;
}

/** Past a fence's language tag: spaces or tabs, `[A-Za-z0-9_-]*`, spaces or tabs, one line break. */
function afterFenceInfo(text: string, at: number): number {
  let i = at;
  while (text[i] === ' ' || text[i] === '\t') i++;
  while (i < text.length && /[A-Za-z0-9_-]/.test(text[i]!)) i++;
  while (text[i] === ' ' || text[i] === '\t') i++;
  if (text[i] === '\r') i++;
  if (text[i] === '\n') i++;
  return i;
}

/** A reply cut off after its opening fence (or with only a closing one) is read without the fence. */
function withoutOpenFence(text: string): string {
  let body = text.startsWith('```') ? text.slice(afterFenceInfo(text, 3)) : text;
  const end = body.trimEnd();
  if (end.endsWith('```')) {
    body = end.slice(0, -3);
    if (body.endsWith('\n')) body = body.slice(0, -1);
    if (body.endsWith('\r')) body = body.slice(0, -1);
  }
  return body;
}

/** The deepest bracket nesting outside JSON strings (one linear pass). */
function maxNesting(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \\ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) max = Math.max(max, ++depth);
    else if ((c === 125 || c === 93) && depth > 0) depth--;
  }
  return max;
}

/**
 * Each top-level balanced `{…}` or `[…]` in the text, in order. Brackets inside JSON strings do not count.
 */
function balancedValues(text: string, limit: number): string[] {
  const values: string[] = [];
  const opening = /[[{]/g;
  for (let start = 0; start < text.length && values.length < limit; start++) {
    opening.lastIndex = start;
    const next = opening.exec(text);
    if (!next) break;
    start = next.index;
    const end = matchingClose(text, start);
    // An unclosed value runs to the end of the text: what follows is inside it.
    if (end < 0) break;
    values.push(text.slice(start, end + 1));
    start = end;
  }
  return values;
}

function matchingClose(text: string, start: number): number {
  const stack: string[] = [];
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '{') stack.push('}');
    else if (c === '[') stack.push(']');
    else if (c === '}' || c === ']') {
      if (stack.pop() !== c) return -1;
      if (stack.length === 0) return i;
    }
  }
  return -1;
}

function fromFirstBracket(text: string): string {
  const at = text.search(/[[{]/);
  return at >= 0 ? text.slice(at).replace(/\*\*\s*$/, '').trim() : '';
}

function preview(text: string): string {
  const line = text.slice(0, 200).replace(/\s+/g, ' ');
  return line.length > 60 ? `${line.slice(0, 60)}…` : line;
}
