import { describe, expect, it } from 'vitest';
import { readOutcome } from '../../runtime/reading/outcome';

const outcomes = ['approved', 'rejected', 'needs_changes'];

describe('reading an outcome', () => {
  it('takes an exact outcome name as it is', () => {
    expect(readOutcome('approved', outcomes)).toEqual({ ok: true, outcome: 'approved', readAs: [] });
  });

  it('ignores case, whitespace, quotes and punctuation around a bare name', () => {
    expect(readOutcome('"Approved."', outcomes)).toEqual({ ok: true, outcome: 'approved', readAs: ['outcome-name'] });
    expect(readOutcome('  REJECTED\n', outcomes)).toEqual({ ok: true, outcome: 'rejected', readAs: ['outcome-name'] });
    expect(readOutcome('needs changes', outcomes)).toEqual({ ok: true, outcome: 'needs_changes', readAs: ['outcome-name'] });
  });

  it('reads an "Outcome: X" line', () => {
    expect(readOutcome('Outcome: approved', outcomes)).toEqual({ ok: true, outcome: 'approved', readAs: ['outcome-line'] });
    expect(readOutcome('The reviewer agrees, though rejected ideas were mentioned.\n**Outcome:** Approved', outcomes)).toMatchObject({
      ok: true,
      outcome: 'approved',
      readAs: ['outcome-line'],
    });
  });

  it('reads JSON with an outcome, plain or fenced, and keeps its reason', () => {
    expect(readOutcome('{"outcome": "approved", "reason": "they said yes"}', outcomes)).toEqual({ ok: true, outcome: 'approved', reason: 'they said yes', readAs: [] });
    expect(readOutcome('```json\n{"outcome":"approved"}\n```', outcomes)).toEqual({ ok: true, outcome: 'approved', readAs: ['fenced-json'] });
    expect(readOutcome('{"outcome": "Rejected"}', outcomes)).toMatchObject({ ok: true, outcome: 'rejected' });
  });

  it('JSON naming an undeclared outcome is no reading', () => {
    expect(readOutcome('{"outcome": "maybe"}', outcomes)).toEqual({
      ok: false,
      problem: 'the model\'s answer names "maybe", which is not one of the outcomes (approved, rejected, needs_changes)',
    });
  });

  it('takes the only declared outcome word of a free-text reply', () => {
    expect(readOutcome('The feedback is clearly approved by the reviewer.', outcomes)).toEqual({ ok: true, outcome: 'approved', readAs: ['outcome-word'] });
    expect(readOutcome('This one needs changes before it ships', outcomes)).toMatchObject({ ok: true, outcome: 'needs_changes' });
  });

  it('a reply naming two outcomes is ambiguous', () => {
    expect(readOutcome('Either approved or rejected, hard to say.', outcomes)).toEqual({
      ok: false,
      problem: "the model's answer names more than one outcome (approved, rejected)",
    });
  });

  it('the only outcome word, negated, is no reading (the default outcome, never the negated one)', () => {
    for (const reply of ['Not approved.', "It isn't yet approved", 'The change was never approved', 'No, approved is wrong here']) {
      expect(readOutcome(reply, outcomes)).toEqual({ ok: false, problem: 'the model\'s answer negates the outcome "approved"' });
    }
    expect(readOutcome('Approved, nothing to add', outcomes)).toMatchObject({ ok: true, outcome: 'approved' });
    expect(readOutcome('A knot approved by sailors', outcomes)).toMatchObject({ ok: true, outcome: 'approved' });
    // An explicit reading is taken as written: only the word-in-free-text rule looks for a negation.
    expect(readOutcome('Outcome: approved (not rejected)', outcomes)).toMatchObject({ ok: true, outcome: 'approved', readAs: ['outcome-line'] });
  });

  it('a reply naming none is no reading; a word inside another word does not count', () => {
    expect(readOutcome('I am not sure.', outcomes)).toEqual({ ok: false, problem: "the model's answer named no outcome" });
    expect(readOutcome('disapproved', outcomes)).toEqual({ ok: false, problem: "the model's answer named no outcome" });
    expect(readOutcome('', outcomes)).toEqual({ ok: false, problem: "the model's answer is empty" });
  });
});
