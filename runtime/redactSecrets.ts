/**
 * The one place secrets are cut out of text. A secret (an API key read from the environment, an MCP
 * `${VAR}` value) is replaced with `***` wherever it shows: as itself (so also inside `Bearer …`), URL-
 * encoded, and base64 or base64url encoded — also when it is encoded as part of a longer text
 * (`base64("Bearer sk-…")`, a JSON body), since the encoding of the secret's middle does not depend on
 * what surrounds it except for its alignment, and all three alignments are looked for.
 *
 * Code that reads a secret registers it (`registerSecret`); the event log, the run store and the CLI's
 * output then redact every registered secret (`redactKnown`, `redactKnownDeep`).
 */

/** Shorter values are not treated as secrets: cutting them would mangle ordinary text. */
const MIN_SECRET_CHARS = 4;
/** Encoded forms are looked for only for secrets this long (their encodings' cores are long enough to be unique). */
const MIN_ENCODED_SECRET_CHARS = 8;

interface SecretForms {
  /** The secret, its URL encodings and its hex encodings, cut exactly. */
  exact: string[];
  /**
   * The secret with any of its characters escaped as `\uXXXX` (JSON, JavaScript) or `%XX` (URLs), in
   * any mix: a pattern of fixed-length alternatives, so matching stays linear.
   */
  escaped?: RegExp;
  /** The middle of its base64 and base64url encodings at each alignment. */
  cores: string[];
}

const registered = new Set<string>();
const formsCache = new Map<string, SecretForms>();

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

function isBase64Char(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 43 || code === 47 || code === 45 || code === 95;
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

function redactValue(value: unknown): unknown {
  if (typeof value === 'string') return redactSecrets(value, registered);
  if (Array.isArray(value)) {
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

function formsOf(secret: string): SecretForms {
  const cached = formsCache.get(secret);
  if (cached) return cached;
  const encoded = encodeURIComponent(secret);
  const hex = Buffer.from(secret, 'utf8').toString('hex');
  const exact = [...new Set([secret, encoded, encoded.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()), ...(secret.length >= MIN_ENCODED_SECRET_CHARS ? [hex, hex.toUpperCase()] : [])])];
  const cores = new Set<string>();
  if (secret.length >= MIN_ENCODED_SECRET_CHARS) {
    const bytes = Buffer.from(secret, 'utf8');
    for (let offset = 0; offset < 3; offset++) {
      const base64 = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
      // Only whole groups of the secret's own bytes: the first group holds prefix bytes when offset > 0,
      // the last partial group depends on what follows.
      const core = base64.slice(offset === 0 ? 0 : 4, Math.floor((offset + bytes.length) / 3) * 4);
      cores.add(core);
      cores.add(core.replace(/\+/g, '-').replace(/\//g, '_'));
    }
  }
  const forms = { exact, cores: [...cores], escaped: escapedForm(secret) };
  formsCache.set(secret, forms);
  return forms;
}

/** See `SecretForms.escaped`. Each character: itself, `\u` + its code in hex (either case), or `%` + its UTF-8 bytes. */
function escapedForm(secret: string): RegExp | undefined {
  if (secret.length < MIN_ENCODED_SECRET_CHARS) return undefined;
  const hexOf = (n: number, width: number) => n.toString(16).padStart(width, '0').split('').map((d) => (/[a-f]/.test(d) ? `[${d}${d.toUpperCase()}]` : d)).join('');
  const parts = [...secret].map((char) => {
    const units = [...char].length === 1 && char.length === 2 ? [char.charCodeAt(0), char.charCodeAt(1)] : [char.charCodeAt(0)];
    const unicode = units.map((u) => `\\\\u${hexOf(u, 4)}`).join('');
    const percent = [...Buffer.from(char, 'utf8')].map((b) => `%${hexOf(b, 2)}`).join('');
    return `(?:${char.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&')}|${unicode}|${percent})`;
  });
  return new RegExp(parts.join(''), 'g');
}
