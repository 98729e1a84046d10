/**
 * A key in every form a server, a model or a page may echo it as (issue 26), and a scanner that finds
 * any of them in bytes: plain, base64 and base64url at each alignment, hex, URL forms, `\uXXXX`, UTF-16
 * (raw and base64), spaced out, reversed, and base64 wrapped across lines.
 */

/** A realistic long key: `sk-proj-` and base64url characters, `length` characters in all. */
export function canaryKey(length = 164): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  let key = 'sk-proj-';
  while (key.length < length) key += alphabet[Math.floor(Math.random() * alphabet.length)];
  return key;
}

const wrap = (text: string, columns: number) => text.replace(new RegExp(`.{${columns}}`, 'g'), '$&\n').replace(/\n$/, '');

/** The key as an echo would carry it, one text per form. */
export function echoedForms(key: string): [form: string, text: string][] {
  return [
    ['plain', key],
    ['bearer', `Bearer ${key}`],
    ['base64 (alignment 0)', Buffer.from(key).toString('base64')],
    ['base64 of "Bearer …" (alignment 1)', Buffer.from(`Bearer ${key}`).toString('base64')],
    ['base64url of "xy…" (alignment 2)', Buffer.from(`xy${key}`).toString('base64url')],
    ['hex', Buffer.from(key).toString('hex')],
    ['HEX', Buffer.from(key).toString('hex').toUpperCase()],
    ['URL component', encodeURIComponent(`key=${key}&next=/v1`)],
    ['every byte %-encoded', [...Buffer.from(key)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('')],
    ['\\uXXXX', [...key].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')],
    ['UTF-16 base64', Buffer.from(key, 'utf16le').toString('base64')],
    ['UTF-16BE base64', Buffer.from(key, 'utf16le').swap16().toString('base64')],
    ['space-separated', [...key].join(' ')],
    ['reversed', [...key].reverse().join('')],
    ['base64 wrapped at 76 columns', wrap(Buffer.from(key).toString('base64'), 76)],
    ['base64 of "Authorization: Bearer …" wrapped at 64 columns (CRLF)', wrap(Buffer.from(`Authorization: Bearer ${key}`).toString('base64'), 64).replace(/\n/g, '\r\n')],
  ];
}

/** Whole base64 groups of the bytes' own, at each of three alignments (what any base64 text holding them contains). */
function cores(bytes: Buffer): string[] {
  const out: string[] = [];
  for (let offset = 0; offset < 3; offset++) {
    const b64 = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
    const core = b64.slice(offset === 0 ? 0 : 4, Math.floor((offset + bytes.length) / 3) * 4);
    out.push(core, core.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return out;
}

/**
 * What the scanner looks for. `raw` needles are searched in the bytes as they are; `squeezed` ones with
 * white space, NULs and JSON's `\n` `\r` `\t` `\u0000` escapes taken out (spaced-out, wrapped, UTF-16 text).
 * Each needle is cut to 40 characters: any 40 consecutive characters of a form are the key's.
 */
function needles(key: string): { raw: [string, string][]; squeezed: [string, string][] } {
  const hex = Buffer.from(key).toString('hex');
  const reversed = [...key].reverse().join('');
  const unicode = [...key].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
  const percent = [...Buffer.from(key)].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
  const middle = (text: string, n = 40) => text.slice(Math.floor(text.length / 2) - n / 2, Math.floor(text.length / 2) + n / 2);
  const b64 = [
    ...cores(Buffer.from(key)).map((c, i) => [`base64 #${i}`, middle(c)] as [string, string]),
    ...cores(Buffer.from(key, 'utf16le')).map((c, i) => [`UTF-16 base64 #${i}`, middle(c)] as [string, string]),
    ...cores(Buffer.from(key, 'utf16le').swap16()).map((c, i) => [`UTF-16BE base64 #${i}`, middle(c)] as [string, string]),
  ];
  const text: [string, string][] = [
    ['plain', middle(key)],
    ['reversed', middle(reversed)],
    ['hex', middle(hex)],
    ['HEX', middle(hex.toUpperCase())],
  ];
  return {
    raw: [
      ...text,
      ...b64,
      ['UTF-16LE', Buffer.from(middle(key), 'utf16le').toString('latin1')],
      ['\\uXXXX', middle(unicode, 60)],
      ['\\\\uXXXX (JSON)', middle(unicode, 60).replace(/\\/g, '\\\\')],
      ['%xx', middle(percent, 60)],
      ['%XX', middle(percent, 60).toUpperCase()],
    ],
    squeezed: [...text, ...b64],
  };
}

const scanners = new Map<string, ReturnType<typeof needles>>();

/** The forms of `key` found in these bytes (empty when none). */
export function keyFormsIn(bytes: Buffer | string, key: string): string[] {
  const found = new Set<string>();
  let n = scanners.get(key);
  if (!n) scanners.set(key, (n = needles(key)));
  const raw = Buffer.isBuffer(bytes) ? bytes.toString('latin1') : Buffer.from(bytes).toString('latin1');
  for (const [form, needle] of n.raw) if (raw.includes(needle)) found.add(form);
  const squeezed = raw.replace(/\\u0000|\\[nrt]|[\s\0]/g, '');
  for (const [form, needle] of n.squeezed) if (!found.has(form) && squeezed.includes(needle)) found.add(`${form} (spaced, wrapped or UTF-16)`);
  return [...found];
}
