import { describe, expect, it } from 'vitest';
import { wordDiff } from '../../runtime/runs/wordDiff';

const side = (parts: ReturnType<typeof wordDiff>, keep: 'add' | 'remove') => parts.filter((p) => p.op === 'equal' || p.op === keep).map((p) => p.text).join('');

describe('wordDiff', () => {
  it('marks the changed words and gives back both texts', () => {
    const a = 'The quick brown fox jumps over the dog.';
    const b = 'The slow brown fox walks over the lazy dog.';
    const parts = wordDiff(a, b);
    expect(side(parts, 'remove')).toBe(a);
    expect(side(parts, 'add')).toBe(b);
    expect(parts.filter((p) => p.op === 'remove').map((p) => p.text.trim())).toEqual(['quick', 'jumps']);
    expect(parts.filter((p) => p.op === 'add').map((p) => p.text.trim())).toEqual(['slow', 'walks', 'lazy']);
  });

  it('is one equal part for equal texts, and handles empty ones', () => {
    expect(wordDiff('same text\nhere', 'same text\nhere')).toEqual([{ op: 'equal', text: 'same text\nhere' }]);
    expect(wordDiff('', 'new words')).toEqual([{ op: 'add', text: 'new words' }]);
    expect(wordDiff('old', '')).toEqual([{ op: 'remove', text: 'old' }]);
  });
});
