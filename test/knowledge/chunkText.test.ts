import { describe, expect, it } from 'vitest';
import { chunkText, DEFAULT_CHUNK_OVERLAP, DEFAULT_CHUNK_SIZE } from '../../runtime/knowledge/chunkText';

const sentence = (i: number) => `Sentence number ${i} talks about solar panels and batteries.`;

describe('chunkText', () => {
  it('keeps short text as one chunk', () => {
    expect(chunkText('  A short note.  ')).toEqual(['A short note.']);
    expect(chunkText('   \n  ')).toEqual([]);
  });

  it('cuts long text into chunks of at most the default 4000 characters that overlap by about 200', () => {
    const text = Array.from({ length: 300 }, (_, i) => sentence(i)).join(' ');
    const chunks = chunkText(text);
    expect(DEFAULT_CHUNK_SIZE).toBe(4000);
    expect(DEFAULT_CHUNK_OVERLAP).toBe(200);
    expect(chunks.length).toBeGreaterThan(4);
    for (const chunk of chunks) expect(chunk.length).toBeLessThanOrEqual(4000);
    // Chunks end at sentence ends, and each next chunk repeats the tail of the previous one.
    for (let i = 0; i + 1 < chunks.length; i++) {
      expect(chunks[i]).toMatch(/\.$/);
      const tail = chunks[i]!.slice(-150);
      expect(chunks[i + 1]!.startsWith(tail.slice(tail.indexOf(' ') + 1, tail.indexOf(' ') + 40)) || chunks[i + 1]!.includes(tail.slice(-60))).toBe(true);
    }
    // Nothing is lost: every sentence is in some chunk.
    for (let i = 0; i < 300; i++) expect(chunks.some((c) => c.includes(sentence(i)))).toBe(true);
  });

  it('prefers a paragraph break near the limit', () => {
    const first = 'a'.repeat(30) + ' ' + 'word '.repeat(10).trim();
    const text = `${first}\n\nSecond paragraph ${'x '.repeat(40)}`;
    const chunks = chunkText(text, { size: 100, overlap: 0 });
    expect(chunks[0]).toBe(first);
    expect(chunks[1]!.startsWith('Second paragraph')).toBe(true);
  });

  it('honours a custom size and overlap and does not start a chunk inside a word', () => {
    const text = Array.from({ length: 200 }, (_, i) => `w${i}`).join(' ');
    const chunks = chunkText(text, { size: 120, overlap: 30 });
    for (const c of chunks) {
      expect(c.length).toBeLessThanOrEqual(120);
      expect(c).toMatch(/^w\d+/);
    }
    const overlapWords = chunks[1]!.split(' ').filter((w) => chunks[0]!.split(' ').includes(w));
    expect(overlapWords.length).toBeGreaterThan(2);
  });

  it('cuts text without any whitespace at the limit', () => {
    expect(chunkText('x'.repeat(250), { size: 100, overlap: 10 }).map((c) => c.length)).toEqual([100, 100, 70]);
  });

  it('rejects an overlap that is not smaller than the size', () => {
    expect(() => chunkText('text', { size: 100, overlap: 100 })).toThrow(/overlap must be a whole number from 0 to 99, got 100/);
  });
});
