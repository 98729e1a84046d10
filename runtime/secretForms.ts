/**
 * The forms a secret takes in text, for `redactSecrets.ts`: what a server, a model or a tool may echo a
 * key as. Computed once per secret.
 */

/** Encoded forms are looked for only for secrets this long (their encodings' cores are long enough to be unique). */
export const MIN_ENCODED_SECRET_CHARS = 8;

export interface SecretForms {
  /** The secret, its URL encodings and (when long enough) its hex encodings and its reverse, cut exactly. */
  exact: string[];
  /**
   * The secret with any of its characters escaped as `\uXXXX` (JSON, JavaScript) or `%XX` (URLs), in
   * any mix: a pattern of fixed-length alternatives, so matching stays linear.
   */
  escaped?: RegExp;
  /**
   * The middle of its base64 and base64url encodings at each alignment, of its UTF-8 bytes and of its
   * UTF-16 (little- and big-endian) bytes: a run of base64 holding one is cut whole.
   */
  cores: string[];
  /** What is looked for with white space (and NULs) taken out: the secret spaced out, reversed, hex in groups. */
  spread: string[];
}

const formsCache = new Map<string, SecretForms>();

export function formsOf(secret: string): SecretForms {
  const cached = formsCache.get(secret);
  if (cached) return cached;
  const long = secret.length >= MIN_ENCODED_SECRET_CHARS;
  const encoded = encodeURIComponent(secret);
  const hex = Buffer.from(secret, 'utf8').toString('hex');
  const reversed = [...secret].reverse().join('');
  const spread = long ? [...new Set([secret, reversed, hex, hex.toUpperCase()])] : [];
  const exact = [...new Set([secret, encoded, encoded.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()), ...spread])];
  const cores = new Set<string>();
  if (long) {
    const utf16be = Buffer.from(secret, 'utf16le').swap16();
    for (const bytes of [Buffer.from(secret, 'utf8'), Buffer.from(secret, 'utf16le'), utf16be]) {
      for (const core of base64Cores(bytes)) {
        cores.add(core);
        cores.add(core.replace(/\+/g, '-').replace(/\//g, '_'));
      }
    }
  }
  const forms = { exact, cores: [...cores], spread, escaped: escapedForm(secret) };
  formsCache.set(secret, forms);
  return forms;
}

/**
 * For each of the three alignments the bytes can have in a longer encoded text, the base64 of the whole
 * groups made of their own bytes only (the first group holds prefix bytes when the offset is not 0, the
 * last partial group depends on what follows).
 */
function base64Cores(bytes: Buffer): string[] {
  const out: string[] = [];
  for (let offset = 0; offset < 3; offset++) {
    const base64 = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
    out.push(base64.slice(offset === 0 ? 0 : 4, Math.floor((offset + bytes.length) / 3) * 4));
  }
  return out;
}

/** See `SecretForms.escaped`. Each character: itself, `\u` + its code in hex (either case), or `%` + its UTF-8 bytes. */
function escapedForm(secret: string): RegExp | undefined {
  if (secret.length < MIN_ENCODED_SECRET_CHARS) return undefined;
  const hexOf = (n: number, width: number) => n.toString(16).padStart(width, '0').split('').map((d) => (/[a-f]/.test(d) ? `[${d}${d.toUpperCase()}]` : d)).join('');
  const parts = [...secret].map((char) => {
    const units = [...char].length === 1 && char.length === 2 ? [char.charCodeAt(0), char.charCodeAt(1)] : [char.charCodeAt(0)];
    // One backslash, or more: `\u0073` inside a JSON string is written `\\u0073`.
    const unicode = units.map((u) => `(?:\\\\)+u${hexOf(u, 4)}`).join('');
    const percent = [...Buffer.from(char, 'utf8')].map((b) => `%${hexOf(b, 2)}`).join('');
    return `(?:${char.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&')}|${unicode}|${percent})`;
  });
  return new RegExp(parts.join(''), 'g');
}
