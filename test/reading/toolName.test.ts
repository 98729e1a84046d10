import { describe, expect, it } from 'vitest';
import { cleanToolName, resolveToolName } from '../../runtime/reading/toolName';

const tools = ['calculator', 'search_web', 'delegate_work', 'ask_question'];
const resolve = (name: string, args: Record<string, unknown> = {}, fuzzy = true) => resolveToolName(name, args, tools, (t) => t, { fuzzy });

describe('reading a tool name', () => {
  it('strips markdown emphasis, backticks and quotes', () => {
    expect(cleanToolName('**calculator**')).toBe('calculator');
    expect(cleanToolName('`search_web`')).toBe('search_web');
    expect(cleanToolName('"calculator"')).toBe('calculator');
    expect(cleanToolName('  Test Tool  ')).toBe('Test Tool');
  });

  it('takes a name as written without marking it', () => {
    expect(resolve('calculator')).toEqual({ tool: 'calculator', args: {}, readAs: [] });
  });

  it('matches cleaned and case-insensitive names, and says so', () => {
    expect(resolve('**Calculator**')).toEqual({ tool: 'calculator', args: {}, readAs: ['tool-name-cleaned'] });
    expect(resolve('Search Web')).toEqual({ tool: 'search_web', args: {}, readAs: ['tool-name-cleaned'] });
  });

  it("resolves CrewAI's delegation tool names and argument shape", () => {
    const args = { task: 'Find 5 ideas', context: 'for an article', coworker: 'Researcher' };
    expect(resolve('**Delegate work to coworker**', args)).toEqual({
      tool: 'delegate_work',
      args,
      readAs: ['tool-name-cleaned', 'crewai-tool-name'],
    });
    expect(resolve('Ask question to coworker', { task: 'Which source?', context: 'the report', coworker: 'Writer' })).toEqual({
      tool: 'ask_question',
      args: { question: 'Which source?', context: 'the report', coworker: 'Writer' },
      readAs: ['crewai-tool-name'],
    });
    expect(resolve('Delegate work to coworker', { task: 'x', context: { notes: [1] }, coworker: 'Writer' })?.args).toEqual({
      task: 'x',
      context: '{"notes":[1]}',
      coworker: 'Writer',
    });
  });

  it('fuzzy matching is for ReAct names only; strangers never match', () => {
    expect(resolve('calculater')?.tool).toBe('calculator');
    expect(resolve('calculater', {}, false)).toBeUndefined();
    expect(resolve('weather')).toBeUndefined();
  });
});
