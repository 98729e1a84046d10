/** Python string literals: their prefix and the escapes in their body, as Python reads them. */

/** The lower-cased prefix letters of a string_start token (`Rb"` → `rb`). */
export function stringPrefix(start: string): string {
  return (/^[A-Za-z]*/.exec(start)?.[0] ?? '').toLowerCase();
}

const SIMPLE: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', "'": "'", '"': '"', a: '\x07', b: '\b', f: '\f', v: '\v', '\n': '' };

/** A string literal's body with its escapes applied (a raw string's body is kept as written). */
export function decodeStringBody(body: string, raw: boolean): string {
  if (raw || !body.includes('\\')) return body;
  return body.replace(/\\(N\{[^}]*\}|U[0-9a-fA-F]{8}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|[0-7]{1,3}|\r\n|[\s\S])/g, (whole, e: string) => {
    if (e in SIMPLE) return SIMPLE[e] ?? whole;
    if (e === '\r\n') return '';
    const head = e[0];
    if (head === 'x' || head === 'u' || head === 'U') {
      const code = parseInt(e.slice(1), 16);
      return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    if (/^[0-7]/.test(e)) return String.fromCharCode(parseInt(e, 8));
    // \N{NAME} needs Unicode's name table, and an unknown escape keeps its backslash, as in Python.
    return whole;
  });
}
