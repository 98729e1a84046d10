import { describe, expect, it } from 'vitest';
import { redactSecrets } from '../../runtime/redactSecrets';

/**
 * Review attacks (issue 13) on redaction: a server (or a tool result) that echoes the key in a form the
 * first version did not look for. Base64, base64url and URL-encoded forms were covered; these were not:
 * hex (`Buffer.toString('hex')`, either case), JSON/JavaScript `\uXXXX` escapes (a JSON body from
 * `JSON.stringify(…, ensure_ascii)`-style encoders, or `\u0073k-…` with only some characters escaped),
 * and percent-encoding of every character rather than only the reserved ones.
 */
const KEY = 'sk-review-Zx81qT55abc';
const hex = Buffer.from(KEY).toString('hex');
const allPercent = [...Buffer.from(KEY)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
const allUnicode = [...KEY].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');

describe('a key echoed in other encodings is cut', () => {
  it.each([
    ['hex', `key=${hex};`],
    ['HEX', `key=${hex.toUpperCase()};`],
    ['every character \\u-escaped', `{"error":"bad key ${allUnicode}"}`],
    ['one character \\u-escaped', `{"error":"bad key \\u0073k-review-Zx81qT55abc"}`],
    ['mixed-case \\u escapes', `"\\u0073\\u006B-review-Zx81qT55abc"`],
    ['every byte %-encoded', `GET /?k=${allPercent}`],
    ['some bytes %-encoded, lower case', `GET /?k=%73k-review-%5ax81qT55abc`],
  ])('%s', (_name, text) => {
    const out = redactSecrets(text, [KEY]);
    expect(out).toContain('***');
    expect(out.toLowerCase()).not.toContain('zx81qt55');
    expect(out.toLowerCase()).not.toContain(hex.slice(8, 24));
  });

  it('leaves other text alone and stays fast on a long hostile text', () => {
    expect(redactSecrets('%73k-review and \\u0073k-other', [KEY])).toBe('%73k-review and \\u0073k-other');
    const hostile = '\\u0073'.repeat(200_000) + '%73'.repeat(200_000);
    redactSecrets(hostile, [KEY]);
  });
});
