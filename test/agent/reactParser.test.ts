import { describe, expect, it } from 'vitest';
import { parseActionInput, parseReact } from '../../runtime/agent/reactParser';
import { matchName } from '../../runtime/agent/fuzzyMatch';

describe('ReAct parser', () => {
  it('reads an action with its JSON input, ignoring a hallucinated observation', () => {
    expect(parseReact('Thought: need math\nAction: calculator\nAction Input: {"expression": "1+1"}\nObservation: 2')).toMatchObject({
      kind: 'action',
      tool: 'calculator',
      input: { expression: '1+1' },
      thought: 'need math',
    });
  });

  it('the final answer wins over an action in the same reply', () => {
    expect(parseReact('Action: x\nAction Input: {}\nFinal Answer: 7')).toEqual({ kind: 'final', answer: '7', thought: undefined, readAs: [] });
  });

  it('repairs slightly malformed JSON and rejects what is not an object', () => {
    expect(parseActionInput("{'a': 1, b: 'two',}")).toEqual({ a: 1, b: 'two' });
    expect(parseActionInput('```json\n{"a": 1}\n```'.replace(/```json\n|\n```/g, ''))).toEqual({ a: 1 });
    expect(parseActionInput('[1, 2]')).toBeUndefined();
    expect(parseActionInput('')).toEqual({});
  });

  it('a reply in neither format is the final answer as written (CrewAI 1.x), an "Action:" without input included', () => {
    expect(parseReact('just chatting')).toEqual({ kind: 'final', answer: 'just chatting', thought: undefined, readAs: [] });
    expect(parseReact('  Thought: hmm, 42\n')).toMatchObject({ kind: 'final', answer: 'Thought: hmm, 42' });
    expect(parseReact('Action: calculator')).toMatchObject({ kind: 'final', answer: 'Action: calculator' });
  });

  it('explains what is wrong with a reply it cannot take: empty, an empty final answer, an unreadable action', () => {
    expect(parseReact(' \n ')).toMatchObject({ kind: 'invalid', error: expect.stringContaining('empty') });
    expect(parseReact('Thought: done\nFinal Answer:')).toMatchObject({ kind: 'invalid', error: '"Final Answer:" is empty.' });
    expect(parseReact('Action: calculator\nAction Input: 42')).toMatchObject({ kind: 'invalid', error: expect.stringContaining('not a JSON object') });
  });
});

describe('name matching', () => {
  const roles = ['Senior Researcher', 'Writer', 'QA Lead'];
  it('matches case-, quote- and whitespace-insensitively, first match wins', () => {
    expect(matchName('  senior   RESEARCHER', roles, (r) => r)).toBe('Senior Researcher');
    expect(matchName('"writer"', roles, (r) => r)).toBe('Writer');
  });
  it('falls back to a near miss, and gives up on strangers', () => {
    expect(matchName('Senior Reseacher', roles, (r) => r)).toBe('Senior Researcher');
    expect(matchName('QA lead.', roles, (r) => r)).toBe('QA Lead');
    expect(matchName('Astronaut', roles, (r) => r)).toBeUndefined();
    expect(matchName('', roles, (r) => r)).toBeUndefined();
  });
});
