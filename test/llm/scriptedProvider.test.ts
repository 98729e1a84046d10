import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../runtime/llm/chatModel';
import {
  ContextWindowExceeded,
  ModelCallAborted,
  ModelCallFailed,
  ScriptExhausted,
  ToolsUnsupported,
} from '../../runtime/llm/errors';
import { parseScript, ScriptInvalid } from '../../runtime/llm/script';
import { ScriptedChatModel } from '../../runtime/llm/scriptedProvider';
import { abortableSleep, type Sleep } from '../../runtime/llm/abortableSleep';

function scripted(value: unknown, options: ConstructorParameters<typeof ScriptedChatModel>[1] = {}) {
  return new ScriptedChatModel(parseScript(value, 'test.json'), { model: 'demo', source: 'test.json', ...options });
}
const ask = (content: string, extra: Partial<ChatRequest> = {}): ChatRequest => ({
  messages: [
    { role: 'system', content: 'You are Researcher.' },
    { role: 'user', content },
  ],
  ...extra,
});
const text = async (model: ScriptedChatModel, request: ChatRequest) => (await model.chat(request)).content;

describe('scripted provider', () => {
  it('fills $1…$9 with the groups the rule’s regexes captured, system’s first, in content and tool arguments', async () => {
    const m = scripted({
      rules: [
        {
          when: { system: '/You are (\\w+)\\./', last: '/about "(.+?)" in (\\d{4})/' },
          reply: { content: '$1 looked up $2 for $3; $4 stays as written', toolCalls: [{ name: 'search', arguments: { query: '$2 $3' } }] },
        },
        { when: { last: 'price' }, reply: 'costs $1' },
      ],
    });
    const found = await m.chat(ask('Tell me about "rooftop "solar"" in 2026.'));
    expect(found.content).toBe('Researcher looked up rooftop "solar" for 2026; $4 stays as written');
    // Inside tool arguments a group is JSON-escaped: the arguments stay valid JSON.
    expect(JSON.parse(found.toolCalls[0]!.arguments)).toEqual({ query: 'rooftop "solar" 2026' });
    // A substring rule captures nothing: its reply is sent as written.
    expect(await text(m, ask('the price?'))).toBe('costs $1');
  });

  it('answers from the first matching rule, then the sequence, then the default', async () => {
    const m = scripted({
      rules: [
        { when: { last: 'weather' }, reply: 'sunny' },
        { when: { last: 'weather' }, reply: 'never reached' },
      ],
      sequence: ['first', 'second'],
      default: 'fallback',
    });
    expect(await text(m, ask('the weather?'))).toBe('sunny');
    expect(await text(m, ask('hello'))).toBe('first');
    expect(await text(m, ask('weather again'))).toBe('sunny');
    expect(await text(m, ask('hello'))).toBe('second');
    expect(await text(m, ask('hello'))).toBe('fallback');
    expect(await text(m, ask('hello'))).toBe('fallback');
    expect([m.provider, m.model, m.callCount]).toEqual(['scripted', 'demo', 6]);
  });

  it('limits a rule with times and walks a reply list, repeating the last entry', async () => {
    const m = scripted({
      rules: [
        { when: { last: 'a' }, reply: 'once', times: 1 },
        { when: { last: 'a' }, reply: ['x', 'y'] },
      ],
    });
    expect([await text(m, ask('a')), await text(m, ask('a')), await text(m, ask('a')), await text(m, ask('a'))]).toEqual([
      'once',
      'x',
      'y',
      'y',
    ]);
  });

  it('matches regexes with flags, system, any, lastRole, hasTools and callIndex, all fields together', async () => {
    const m = scripted({
      rules: [
        { when: { callIndex: 0 }, reply: 'first call' },
        { when: { last: '/^SUMMARI[sz]E/i', system: 'Researcher' }, reply: 'summary' },
        { when: { lastRole: 'tool', any: 'Observation' }, reply: 'after tool' },
        { when: { hasTools: true }, reply: 'has tools' },
        { when: { system: 'Writer' }, reply: 'writer' },
      ],
      default: 'none',
    });
    expect(await text(m, ask('summarise this'))).toBe('first call');
    expect(await text(m, ask('summarise this'))).toBe('summary');
    expect(await text(m, ask('please summarise'))).toBe('none');
    const toolTurn: ChatRequest = {
      messages: [
        { role: 'user', content: 'Observation needed' },
        { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 't', arguments: '{}' }] },
        { role: 'tool', content: '42', toolCallId: 'c1' },
      ],
    };
    expect(await text(m, toolTurn)).toBe('after tool');
    expect(await text(m, ask('x', { tools: [{ name: 't', description: 'd', parameters: {} }] }))).toBe('has tools');
    expect(await text(m, ask('x', { tools: [] }))).toBe('none');
    expect(await text(m, { messages: [{ role: 'system', content: 'You are Writer' }] })).toBe('writer');
  });

  it('treats a plain Text as a literal, case-sensitive substring', async () => {
    const m = scripted({ rules: [{ when: { last: 'a.c' }, reply: 'literal' }], default: 'no' });
    expect(await text(m, ask('xa.cx'))).toBe('literal');
    expect(await text(m, ask('abc'))).toBe('no');
    expect(await text(m, ask('A.C'))).toBe('no');
  });

  it('returns tool calls with call_<n> ids and JSON-encoded object arguments', async () => {
    const m = scripted({
      sequence: [
        { content: 'Let me check', toolCalls: [{ name: 'weather', arguments: { city: 'Oslo' } }, { name: 'raw', arguments: "{'bad'" }] },
        { toolCalls: [{ name: 'clock', arguments: {} }] },
      ],
    });
    const first = await m.chat(ask('x'));
    expect(first).toMatchObject({
      content: 'Let me check',
      finishReason: 'tool_calls',
      toolCalls: [
        { id: 'call_1', name: 'weather', arguments: '{"city":"Oslo"}' },
        { id: 'call_2', name: 'raw', arguments: "{'bad'" },
      ],
    });
    expect((await m.chat(ask('x'))).toolCalls).toEqual([{ id: 'call_3', name: 'clock', arguments: '{}' }]);
  });

  it('reports explicit usage, and estimates what is missing as characters / 4', async () => {
    const m = scripted({ sequence: [{ content: 'abc', usage: { prompt: 10, completion: 2, cached: 4 } }, { content: 'abcde', usage: { prompt: 7 } }, 'abcdefghi'] });
    expect((await m.chat(ask('q'))).usage).toEqual({ promptTokens: 10, completionTokens: 2, cachedPromptTokens: 4, totalTokens: 12, requests: 1 });
    expect((await m.chat(ask('q'))).usage).toMatchObject({ promptTokens: 7, completionTokens: 2, totalTokens: 9 });
    // "You are Researcher." (19) + "hello!" (6) = 25 chars → 7 tokens; 9 chars → 3 tokens.
    expect((await m.chat(ask('hello!'))).usage).toEqual({ promptTokens: 7, completionTokens: 3, cachedPromptTokens: 0, totalTokens: 10, requests: 1 });
  });

  it('throws ScriptExhausted naming the script and showing the last message, truncated', async () => {
    const m = scripted({ sequence: ['only'] });
    await m.chat(ask('one'));
    const long = `Please write ${'x'.repeat(500)}`;
    const error = await m.chat(ask(long)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ScriptExhausted);
    const message = (error as Error).message;
    expect(message).toContain('test.json');
    expect(message).toContain('call #2');
    expect(message).toContain('user: "Please write xxx');
    expect(message.length).toBeLessThan(450);
  });

  it('throws the typed error an error reply asks for', async () => {
    const m = scripted({
      sequence: [
        { error: { message: 'too long', code: 'context_length_exceeded' } },
        { error: { message: 'no tools here', code: 'tools_unsupported' } },
        { error: { status: 503, message: 'overloaded' } },
      ],
    });
    const errors = [];
    for (let i = 0; i < 3; i++) errors.push(await m.chat(ask('x')).catch((e: unknown) => e));
    expect(errors[0]).toBeInstanceOf(ContextWindowExceeded);
    expect(errors[1]).toBeInstanceOf(ToolsUnsupported);
    expect(errors[2]).toBeInstanceOf(ModelCallFailed);
    expect([(errors[2] as ModelCallFailed).status, (errors[2] as Error).message]).toEqual([503, 'overloaded']);
  });

  it('waits delayMs, and an abort interrupts the wait', async () => {
    // The waits go through the real abortable sleep, recorded: which delay was asked for, not how long it took.
    const waits: number[] = [];
    const sleep: Sleep = (ms, signal) => (waits.push(ms), abortableSleep(ms, signal));
    const m = scripted({ sequence: [{ content: 'slow', delayMs: 60 }, { content: 'never', delayMs: 10_000 }] }, { sleep });
    expect(await text(m, ask('x'))).toBe('slow');
    expect(waits).toEqual([60]);
    const controller = new AbortController();
    const never = m.chat(ask('x', { signal: controller.signal }));
    expect(waits).toEqual([60, 10_000]);
    controller.abort();
    // Rejected by the abort: a wait that ignored it would hold this past the test's timeout.
    await expect(never).rejects.toBeInstanceOf(ModelCallAborted);
  });

  it('streams a few chunks when the script asks for it', async () => {
    const content = 'one two three four five six seven';
    const chunks: string[] = [];
    await scripted({ default: content, stream: true }).chat(ask('x', { onChunk: (d) => chunks.push(d) }));
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.join('')).toBe(content);
    const silent: string[] = [];
    await scripted({ default: content }).chat(ask('x', { onChunk: (d) => silent.push(d) }));
    expect(silent).toEqual([]);
  });

  it('takes nativeTools from the script unless the options override it', () => {
    expect(scripted({ default: 'x' }).supportsNativeTools).toBe(true);
    expect(scripted({ default: 'x', nativeTools: false }).supportsNativeTools).toBe(false);
    expect(scripted({ default: 'x', nativeTools: false }, { nativeTools: true }).supportsNativeTools).toBe(true);
  });

  it('keeps state per instance', async () => {
    const script = parseScript({ sequence: ['a', 'b'] }, 's');
    const one = new ScriptedChatModel(script);
    const two = new ScriptedChatModel(script);
    expect(await text(one, ask('x'))).toBe('a');
    expect(await text(two, ask('x'))).toBe('a');
    expect(await text(one, ask('x'))).toBe('b');
  });
});

describe('parseScript', () => {
  it('lists every problem as path: message, prefixed with the source name', () => {
    let error: unknown;
    try {
      parseScript(
        {
          rules: [
            { when: { lastRole: 'robot', last: '/unclosed(/' }, reply: 'x', times: 0 },
            { when: {}, reply: ['ok', { delayMs: -1 }] },
            { when: {}, reply: { contnt: 'typo' } },
          ],
          sequence: ['ok', { toolCalls: [{ arguments: {} }] }],
          extra: true,
        },
        'scripts/demo.json',
      );
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ScriptInvalid);
    const lines = (error as Error).message.split('\n');
    expect(lines.every((l) => l.startsWith('scripts/demo.json: '))).toBe(true);
    const paths = lines.map((l) => l.slice('scripts/demo.json: '.length).split(':')[0]);
    expect(paths).toEqual(
      expect.arrayContaining([
        'rules.0.when.lastRole',
        'rules.0.when.last',
        'rules.0.times',
        'rules.1.reply.1.delayMs',
        'rules.2.reply',
        'sequence.1.toolCalls.0.name',
        '(document)',
      ]),
    );
    expect((error as Error).message).toMatch(/rules\.2\.reply: .*contnt/);
    expect((error as ScriptInvalid).problems.length).toBe(lines.length);
    expect((error as Error).message).toContain('not a valid regular expression');
  });

  it('fills the defaults', () => {
    expect(parseScript({}, 's')).toEqual({ nativeTools: true, stream: false });
  });
});
