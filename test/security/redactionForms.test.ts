import { describe, expect, it } from 'vitest';
import { hasKnownSecrets, redactSecrets, registerSecret } from '../../runtime/redactSecrets';
import { redactedDeltas } from '../../runtime/llm/redactedDeltas';
import { canaryKey, echoedForms, keyFormsIn } from '../support/keyForms';

/**
 * Issue 26 item 2: the forms no output redacted before — UTF-16 base64, space-separated, reversed, and
 * base64 wrapped across lines (a real 164-character key wrapped at 76 columns) — and all the older ones,
 * each in a surrounding text as an echo would carry it.
 */
const KEY = canaryKey(164);

describe('every form of a key is cut', () => {
  it('the scanner finds each form (positive control), and nothing of the key is left once redacted', () => {
    for (const [form, text] of echoedForms(KEY)) {
      const echoed = `The server said: ${text} (end).`;
      expect(keyFormsIn(Buffer.from(echoed), KEY), form).not.toEqual([]);
      const out = redactSecrets(echoed, [KEY]);
      expect(out, form).toMatch(/^The server said: .*\*\*\*.* \(end\)\.$/s);
      expect(keyFormsIn(Buffer.from(out), KEY), `${form}: ${out}`).toEqual([]);
    }
  });

  it('all forms in one text, in JSON, and the key as UTF-16 text', () => {
    const all = echoedForms(KEY).map(([form, text]) => `${form}: ${text}`).join('\n');
    expect(keyFormsIn(Buffer.from(redactSecrets(all, [KEY])), KEY)).toEqual([]);
    expect(keyFormsIn(Buffer.from(redactSecrets(JSON.stringify({ reply: all }), [KEY])), KEY)).toEqual([]);
    const utf16 = `a ${Buffer.from(KEY, 'utf16le').toString('latin1')} b`;
    expect(redactSecrets(utf16, [KEY])).not.toContain(KEY.slice(20, 30).split('').join('\0'));
  });

  it('cuts a wrapped base64 block whole, and leaves the text around it and other base64 alone', () => {
    const other = Buffer.from('x'.repeat(200)).toString('base64').replace(/.{76}/g, '$&\n');
    const wrapped = Buffer.from(KEY).toString('base64').replace(/.{76}/g, '$&\n');
    expect(redactSecrets(`before:\n${wrapped}\nafter ${other}`, [KEY])).toBe(`before:\n***\nafter ${other}`);
    expect(redactSecrets('a reversed word like olleh and s p a c e d text', [KEY])).toBe('a reversed word like olleh and s p a c e d text');
  });

  it('a key spread over stream deltas never shows in the deltas passed on', () => {
    registerSecret(KEY);
    expect(hasKnownSecrets()).toBe(true);
    for (const [form, text] of echoedForms(KEY)) {
      const reply = `Here it is: ${text}. And a long tail ${'of ordinary words '.repeat(100)}`;
      const passed: string[] = [];
      const stream = redactedDeltas((d) => passed.push(d));
      for (let i = 0; i < reply.length; i += 7) stream.push(reply.slice(i, i + 7));
      stream.end();
      expect(keyFormsIn(Buffer.from(passed.join('')), KEY), form).toEqual([]);
      // Everything else arrives, in order.
      expect(passed.join(''), form).toBe(redactSecrets(reply, [KEY]));
    }
  });
});
