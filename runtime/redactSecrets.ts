import { formsOf, type SecretForms } from './secretForms';

/**
 * The one place secrets are cut out of text. A secret (an API key read from the environment, an MCP
 * `${VAR}` value) is replaced with `***` wherever it shows: as itself (so also inside `Bearer …`), URL-
 * encoded, `\uXXXX`- or `%XX`-escaped, hex, reversed, spaced out (`s k - …`), and base64 or base64url
 * encoded — of its UTF-8 or its UTF-16 bytes, also as part of a longer text (`base64("Bearer sk-…")`, a
 * JSON body) at each of the three alignments, and also when the base64 is wrapped across lines.
 *
 * Code that reads a secret registers it (`registerSecret`); every output then redacts every registered
 * secret (`redactKnown`, `redactKnownDeep`): events and the run store, output files, memory, knowledge,
 * training and test records, exports, model requests, CLI and host replies (docs/SECURITY.md).
 */

/** Shorter values are not treated as secrets: cutting them would mangle ordinary text. */
const MIN_SECRET_CHARS = 4;

const registered = new Set<string>();

/** Makes a secret known to `redactKnown`: every event, stored row and CLI line is cleaned of it from now on. */
export function registerSecret(secret: string | undefined | null): void {
  if (secret && secret.length >= MIN_SECRET_CHARS) registered.add(secret);
}

/** Whether any secret is registered (callers skip their walk when none is). */
export function hasKnownSecrets(): boolean {
  return registered.size > 0;
}

/** Replaces every form of every given secret with `***`. Linear in the text's length. */
export function redactSecrets(text: string, secrets: Iterable<string>): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length < MIN_SECRET_CHARS) continue;
    const forms = formsOf(secret);
    for (const form of forms.exact) if (out.includes(form)) out = out.split(form).join('***');
    if (forms.escaped && (out.includes('\\u') || out.includes('%'))) out = out.replace(forms.escaped, '***');
    for (const core of forms.cores) if (out.includes(core)) out = cutEncodedRuns(out, core);
    if (forms.spread.length > 0) out = cutSpread(out, forms);
  }
  return out;
}

/** Replaces each base64 run holding `core` with `***`: the run is the encoding of a text that held the secret. */
function cutEncodedRuns(text: string, core: string): string {
  let out = text;
  for (let at = out.indexOf(core); at >= 0; at = out.indexOf(core, at)) {
    let start = at;
    while (start > 0 && isBase64Char(out.charCodeAt(start - 1))) start--;
    let end = at + core.length;
    while (end < out.length && isBase64Char(out.charCodeAt(end))) end++;
    for (let pad = 0; pad < 2 && out[end] === '='; pad++) end++;
    out = `${out.slice(0, start)}***${out.slice(end)}`;
    at = start + 3;
  }
  return out;
}

/**
 * What the spread-out forms are looked for without: white space, NULs, and the escapes JSON writes for
 * line breaks, tabs and NULs (a wrapped base64 block inside a JSON string has `\n`, not a line break).
 */
const GAPS = /(?:[\s\0]|\\[nrt]|\\u0000)+/g;
/** A gap that only breaks a line (what wrapping adds): a base64 run is followed across it, not across spaces. */
const LINE_BREAKS = /^(?:[\r\n]|\\[rn])*$/;

/**
 * The forms that show only once gaps are taken out: the secret spaced out or split over lines, reversed,
 * hex in groups, UTF-16 text read as bytes, and base64 wrapped across lines (its run is cut whole,
 * following line breaks but not spaces). Each match is cut in the original text, from its first
 * character to its last.
 */
function cutSpread(text: string, forms: SecretForms): string {
  const view = text.replace(GAPS, '');
  if (view.length === text.length) return text;
  const hits = [...forms.spread, ...forms.cores].filter((form) => view.includes(form));
  if (hits.length === 0) return text;
  const at = viewPositions(text, view.length);
  const spans: [number, number][] = [];
  for (const form of hits) {
    const encoded = forms.cores.includes(form);
    for (let i = view.indexOf(form); i >= 0; i = view.indexOf(form, i + 1)) {
      let start = i;
      let end = i + form.length;
      if (encoded) {
        const wrapped = (k: number) => LINE_BREAKS.test(text.slice(at[k - 1]! + 1, at[k]!));
        while (start > 0 && isBase64Char(view.charCodeAt(start - 1)) && wrapped(start)) start--;
        while (end < view.length && isBase64Char(view.charCodeAt(end)) && wrapped(end)) end++;
        for (let pad = 0; pad < 2 && view[end] === '=' && wrapped(end); pad++) end++;
      }
      spans.push([at[start]!, at[end - 1]! + 1]);
    }
  }
  spans.sort((a, b) => a[0] - b[0]);
  let out = '';
  let from = 0;
  for (const [start, end] of spans) {
    if (end <= from) continue;
    out += `${text.slice(from, Math.max(from, start))}***`;
    from = end;
  }
  return out + text.slice(from);
}

/** For each character of the view (the text without its gaps), its index in the text. */
function viewPositions(text: string, length: number): Int32Array {
  const at = new Int32Array(length);
  let j = 0;
  let kept = 0;
  const add = (from: number, to: number) => {
    for (let i = from; i < to; i++) at[j++] = i;
  };
  for (const m of text.matchAll(GAPS)) {
    add(kept, m.index);
    kept = m.index + m[0].length;
  }
  add(kept, text.length);
  return at;
}

function isBase64Char(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 43 || code === 47 || code === 45 || code === 95;
}

/** The secrets registered so far (for outputs redacted elsewhere, e.g. a child process's). */
export function knownSecrets(): readonly string[] {
  return [...registered];
}

/** `redactSecrets` with the registered secrets. */
export function redactKnown(text: string): string {
  return registered.size === 0 ? text : redactSecrets(text, registered);
}

/**
 * Every string in a JSON-like value, redacted. Returns the value itself when nothing changed, and
 * otherwise a copy (the input is never modified: it may be a live conversation or a document).
 */
export function redactKnownDeep<T>(value: T): T {
  if (registered.size === 0) return value;
  return redactValue(value) as T;
}

/** `Array.isArray` that narrows to `unknown[]` rather than `any[]`. */
const isList = (value: unknown): value is unknown[] => Array.isArray(value);

function redactValue(value: unknown): unknown {
  if (typeof value === 'string') return redactSecrets(value, registered);
  if (isList(value)) {
    let copy: unknown[] | undefined;
    value.forEach((item, i) => {
      const clean = redactValue(item);
      if (clean !== item) (copy ??= [...value])[i] = clean;
    });
    return copy ?? value;
  }
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    let copy: Record<string, unknown> | undefined;
    for (const [key, item] of Object.entries(value)) {
      const clean = redactValue(item);
      if (clean !== item) (copy ??= { ...(value as Record<string, unknown>) })[key] = clean;
    }
    return copy ?? value;
  }
  return value;
}
