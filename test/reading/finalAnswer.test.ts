import { describe, expect, it } from 'vitest';
import { readFinalAnswer } from '../../runtime/reading/finalAnswer';

describe('reading a final answer', () => {
  it('is the text after the marker, as written', () => {
    expect(readFinalAnswer('Thought: done\nFinal Answer: 42')).toEqual({ answer: '42', readAs: [] });
  });

  it('drops an unmatched trailing fence (a reply wrapped whole in ```)', () => {
    expect(readFinalAnswer('```\nThought: I now know the final answer\nFinal Answer: {"a":1}\n```')).toEqual({
      answer: '{"a":1}',
      readAs: ['fenced-final-answer'],
    });
  });

  it('keeps a fenced block that belongs to the answer', () => {
    const answer = 'Here it is:\n```json\n{"a": 1}\n```';
    expect(readFinalAnswer(`Final Answer: ${answer}`)).toEqual({ answer, readAs: [] });
  });

  it('drops only the unmatched fence when the answer holds a matched block too', () => {
    expect(readFinalAnswer('```\nFinal Answer: run `x`:\n```sh\nls\n```\n```')).toEqual({
      answer: 'run `x`:\n```sh\nls\n```',
      readAs: ['fenced-final-answer'],
    });
  });

  it('takes the text after the last of two markers', () => {
    expect(readFinalAnswer('Final Answer: draft\nThought: better\nFinal Answer: the real answer')).toEqual({
      answer: 'the real answer',
      readAs: ['last-final-answer'],
    });
  });

  it('reads the marker in any case and spacing; none is no answer', () => {
    expect(readFinalAnswer('final answer : ok')?.answer).toBe('ok');
    expect(readFinalAnswer('FinalAnswer:ok')?.answer).toBe('ok');
    expect(readFinalAnswer('Thought: still working')).toBeUndefined();
  });
});
