import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { readJson, readJsonMatching, readJsonShaped } from '../../runtime/reading/jsonValue';

describe('reading JSON from a reply', () => {
  it('reads a plain JSON reply as it is', () => {
    expect(readJson('{"a": 1}')).toEqual({ ok: true, value: { a: 1 }, readAs: [] });
    expect(readJson(' [1, 2] ')).toEqual({ ok: true, value: [1, 2], readAs: [] });
    expect(readJson('42')).toEqual({ ok: true, value: 42, readAs: [] });
  });

  it('reads a fenced reply', () => {
    expect(readJson('```json\n{"a": 1}\n```')).toEqual({ ok: true, value: { a: 1 }, readAs: ['fenced-json'] });
    expect(readJson('```\n[{"a": 1}]\n```')).toEqual({ ok: true, value: [{ a: 1 }], readAs: ['fenced-json'] });
    expect(readJson('Here you go:\n```JSON\n{"a": 1}\n```\nAnything else?')).toEqual({ ok: true, value: { a: 1 }, readAs: ['fenced-json'] });
  });

  it('reads JSON among chatty prose', () => {
    const reply = 'Sure! Here is the JSON you asked for:\n\n{"title": "Q3", "items": [1, 2]}\n\nLet me know if you need anything else!';
    expect(readJson(reply)).toEqual({ ok: true, value: { title: 'Q3', items: [1, 2] }, readAs: ['json-in-prose'] });
  });

  it('reads JSON behind markdown emphasis', () => {
    expect(readJson('**JSON:**\n{"a": 1}')).toEqual({ ok: true, value: { a: 1 }, readAs: ['json-in-prose'] });
    expect(readJson('**{"a": 1}**')).toEqual({ ok: true, value: { a: 1 }, readAs: ['json-in-prose'] });
  });

  it('takes the first complete value, and braces inside strings do not end it', () => {
    expect(readJson('First {"a": "}{"} then {"b": 2}')).toEqual({ ok: true, value: { a: '}{' }, readAs: ['json-in-prose'] });
  });

  it('skips bracketed prose before the JSON', () => {
    expect(readJson('As noted [see above], the answer is {"ok": true}.')).toEqual({ ok: true, value: { ok: true }, readAs: ['json-in-prose'] });
  });

  it('repairs malformed JSON only when nothing parses as it is', () => {
    expect(readJson("{'a': 1, b: 'two',}")).toEqual({ ok: true, value: { a: 1, b: 'two' }, readAs: ['repaired-json'] });
    expect(readJson('Result: {"a": 1, "b": [1, 2')).toEqual({ ok: true, value: { a: 1, b: [1, 2] }, readAs: ['json-in-prose', 'repaired-json'] });
    expect(readJson('```json\n{"a": 1,}\n```')).toEqual({ ok: true, value: { a: 1 }, readAs: ['fenced-json', 'repaired-json'] });
  });

  it('an unclosed outer object is repaired whole, not read as its inner object', () => {
    expect(readJson('{"outer": {"inner": 1}, "rest": [2')).toMatchObject({ ok: true, value: { outer: { inner: 1 }, rest: [2] } });
  });

  it('says what was wrong when there is no JSON at all', () => {
    expect(readJson('I could not find any data for that quarter.')).toEqual({
      ok: false,
      reason: 'output must be valid JSON (the reply holds no JSON object or array; it begins "I could not find any data for that quarter.")',
    });
    expect(readJson('   ')).toEqual({ ok: false, reason: 'output must be valid JSON (the reply is empty)' });
  });

  it('validates against a JSON Schema', () => {
    const schema = { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] };
    expect(readJsonMatching('```json\n{"n": 3}\n```', schema)).toEqual({ ok: true, value: { n: 3 }, readAs: ['fenced-json'] });
    const bad = readJsonMatching('{"n": "three"}', schema);
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.reason).toMatch(/^output JSON must match the task's schema: .*n/);
  });

  it('checks a zod shape and names the problem', () => {
    const shape = z.object({ pass: z.boolean() });
    expect(readJsonShaped('Verdict: {"pass": true}', shape)).toEqual({ ok: true, value: { pass: true }, readAs: ['json-in-prose'] });
    const bad = readJsonShaped('{"pass": "yes"}', shape);
    expect(!bad.ok && bad.reason).toMatch(/^the JSON does not match the expected shape: pass: /);
  });
});
