import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../runtime/store/database';
import { LONG_TEXT_CHARS, LongTexts } from '../../runtime/store/longTexts';

describe('LongTexts', () => {
  it('stores a long text once however often it is referenced, and leaves short ones inline', () => {
    const db = openDatabase(':memory:');
    try {
      const texts = new LongTexts(db);
      const long = 'x'.repeat(LONG_TEXT_CHARS) + ' the end';
      const short = 'a short reply';
      expect(texts.packText(short)).toBe(short);
      const ref = texts.packText(long);
      expect(ref.length).toBeLessThan(100);
      const payload = texts.packJson({ content: long, nested: [{ output: long }], note: short });
      expect(payload.length).toBeLessThan(300);
      expect(JSON.parse(payload).note).toBe(short);
      // A fresh instance (no cache) reads the references back.
      const reader = new LongTexts(db);
      expect(reader.unpackText(ref)).toBe(long);
      expect(reader.parseJson(payload)).toEqual({ content: long, nested: [{ output: long }], note: short });
      expect(reader.parseJson(JSON.stringify({ note: short }))).toEqual({ note: short });
      expect((db.prepare('SELECT COUNT(*) AS n FROM texts').get() as { n: number }).n).toBe(1);
      expect(reader.unpackText(null)).toBeNull();
    } finally {
      db.close();
    }
  });
});
