import { describe, expect, it } from 'vitest';
import { matchName } from '../../runtime/agent/fuzzyMatch';
import { parseReact } from '../../runtime/agent/reactParser';
import { notJsonMessage } from '../../runtime/llm/openaiErrors';
import { readFinalAnswer } from '../../runtime/reading/finalAnswer';
import { MAX_JSON_DEPTH, readJson } from '../../runtime/reading/jsonValue';
import { readOutcome } from '../../runtime/reading/outcome';
import { readTextToolCall } from '../../runtime/reading/textToolCall';
import { cleanToolName, resolveToolName } from '../../runtime/reading/toolName';

/**
 * Model output is untrusted: no reading of it may hold the event loop. Every reader gets each of these
 * replies and must return within a second (they take milliseconds; the margin is for a loaded machine).
 * Before the fixes, `"```" + " \t".repeat(5000) + "x"` alone took 120 s in readJson (a fence regex with
 * two optional runs around an optional tag), and long runs of spaces or newlines were quadratic in the
 * ReAct, outcome and tool-name regexes.
 */
const N = 100_000;
const HOSTILE: Record<string, string> = {
  'a 5 MB final answer': `Thought: ok\nFinal Answer: ${'lorem ipsum dolor '.repeat(Math.ceil(5_000_000 / 18))}`,
  'a 5 MB unclosed JSON string': `{"a":"${'x'.repeat(5_000_000)}`,
  'a 5 MB fenced JSON array': `\`\`\`json\n[${'1,'.repeat(2_500_000)}1]\n\`\`\``,
  '100k opening brackets': '['.repeat(N),
  '100k nested brackets, closed': '['.repeat(N) + ']'.repeat(N),
  '50k backticks': '`'.repeat(50_000),
  '50k fences': '```\n'.repeat(50_000),
  'a fence then 100k spaces and tabs': `\`\`\`${' \t'.repeat(N / 2)}x`,
  'a fence tag then 100k spaces': `\`\`\`json${' '.repeat(N)}`,
  '20k "Final Answer:" markers': 'Final Answer:'.repeat(20_000),
  '"Final" then 100k spaces': `Final${' '.repeat(N)}x`,
  '{"a": repeated 20k times': '{"a":'.repeat(20_000),
  'prose, then {"a": repeated': `Sure! ${'{"a":'.repeat(20_000)}`,
  '25k small invalid objects': '{x} '.repeat(25_000),
  '12k valid objects, then junk': `${'{"a":1} '.repeat(12_500)}{`,
  '100k empty objects': '{}'.repeat(N),
  '100k mismatched brackets': '{]'.repeat(N),
  'an unclosed string of escapes': `{"${'\\"'.repeat(N)}`,
  '100k spaces between words': `a${' '.repeat(N)}b`,
  '100k newlines between words': `a${'\n'.repeat(N)}b`,
  '100k \\r\\n between words': `a${'\r\n'.repeat(N)}b`,
  'Thought: then 100k newlines': `Thought: ${'\n'.repeat(N)}x`,
  'Action: then 100k spaces': `Action:${' '.repeat(N)}x\nAction Input: {}`,
  'Action then 100k spaces, no colon': `Action${' '.repeat(N)}x`,
  'an Action line of 50k words': `Action: ${' x'.repeat(N / 2)}\nAction Input: {}`,
  'Action Input: then 100k newlines': `Action: x\nAction Input: {}${'\n'.repeat(N)}y`,
  'Action Input: then 100k spaces before Observation': `Action: x\nAction Input: {}\n${' '.repeat(N)}x`,
  '"outcome" then 100k spaces': `outcome${' '.repeat(N)}x`,
  '"**outcome" then 100k stars and spaces': `**outcome${'* '.repeat(N / 2)}x`,
  '100k stars between words': `a${'*'.repeat(N)}b`,
  '"** " repeated': `${'** '.repeat(N / 3)}x`,
  '100k quotes': '"'.repeat(N),
  '100k punctuation between words': `a${'. '.repeat(N / 2)}b`,
  'a 1 MB tool name in stars': `**${'calculator '.repeat(100_000)}**`,
  '"not" then 100k letters, then an outcome': `not ${'a'.repeat(N)} approved`,
  '"not " repeated, then an outcome': `${'not '.repeat(N / 4)}approved`,
  'a 5 MB coworker name': 'Researcher '.repeat(500_000),
};

const READERS: Record<string, (reply: string) => unknown> = {
  readFinalAnswer,
  readJson,
  readOutcome: (reply) => readOutcome(reply, ['approved', 'rejected', 'needs more info']),
  readTextToolCall: (reply) => readTextToolCall(reply, () => true),
  resolveToolName: (reply) => resolveToolName(reply, {}, ['calculator', 'delegate_work'], (t) => t, { fuzzy: true }),
  cleanToolName,
  parseReact,
  notJsonMessage,
  // A coworker named in a delegation call's arguments, matched to the crew's roles (edit distance).
  matchCoworker: (reply) => matchName(reply, ['Senior Research Analyst', 'Technical Writer', 'Researcher'], (r) => r),
};

function timed(run: () => unknown): number {
  const started = performance.now();
  run();
  return performance.now() - started;
}

describe('reading hostile model output is bounded in time', () => {
  for (const [shape, reply] of Object.entries(HOSTILE)) {
    it(`each reader returns within 1 s on ${shape} (${reply.length} characters)`, () => {
      const slow: string[] = [];
      for (const [name, read] of Object.entries(READERS)) {
        // The better of two runs: a garbage-collection pause on a loaded machine is not the reader's time;
        // a superlinear reader is slow both times (the fixed ones took from 2 s to minutes).
        const ms = Math.min(timed(() => read(reply)), timed(() => read(reply)));
        if (ms >= 1000) slow.push(`${name}: ${Math.round(ms)} ms`);
      }
      expect(slow).toEqual([]);
    });
  }

  it('refuses JSON nested deeper than the limit with a reason, instead of a value that overflows later', () => {
    const deep = '['.repeat(MAX_JSON_DEPTH + 1) + ']'.repeat(MAX_JSON_DEPTH + 1);
    expect(readJson(deep)).toEqual({ ok: false, reason: expect.stringContaining(`nested at most ${MAX_JSON_DEPTH} levels`) });
    const fine = '['.repeat(MAX_JSON_DEPTH) + ']'.repeat(MAX_JSON_DEPTH);
    expect(readJson(fine).ok).toBe(true);
  });

  it('says a huge malformed reply is not repaired, and still parses a huge valid one', () => {
    const read = readJson(HOSTILE['a 5 MB unclosed JSON string']!);
    expect(read.ok).toBe(false);
    expect(read.ok ? '' : read.reason).toContain('is not repaired');
    const big = readJson(HOSTILE['a 5 MB fenced JSON array']!);
    expect(big.ok && Array.isArray(big.value) ? big.value.length : 0).toBe(2_500_001);
  });

  it('the rewritten scans read what the regexes did', () => {
    expect(readJson('```json   \r\n{"a":1}\r\n```').ok).toBe(true);
    expect(readJson('``` \t  {"a":1}```')).toEqual({ ok: true, value: { a: 1 }, readAs: ['fenced-json'] });
    expect(readOutcome('**Outcome**:  **approved**', ['approved', 'rejected'])).toEqual({ ok: true, outcome: 'approved', readAs: ['outcome-line'] });
    expect(readOutcome('Some thoughts.\r\n  outcome = rejected\r\n', ['approved', 'rejected'])).toMatchObject({ ok: true, outcome: 'rejected' });
    expect(cleanToolName('  **`calculator`**  ')).toBe('calculator');
    expect(parseReact('Thought: add\n\n  Action 1 : calculator  \nAction Input: {"expression":"1+1"}\n\n  Observation: 2')).toMatchObject({
      kind: 'action',
      tool: 'calculator',
      thought: 'add',
      input: { expression: '1+1' },
    });
  });
});
