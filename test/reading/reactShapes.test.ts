import { describe, expect, it } from 'vitest';
import { parseReact } from '../../runtime/agent/reactParser';
import { resolveToolName } from '../../runtime/reading/toolName';

/**
 * One hand-written reply for every shape of real ReAct reply met in the corpus (reactCorpus.test.ts),
 * read as CrewAI reads it.
 */
describe('ReAct reply shapes from real models', () => {
  it.each([
    ['Thought, then Final Answer', 'Thought: The chart rises every year.\n\nFinal Answer: Revenue grew steadily from 2020 to 2024.', 'Revenue grew steadily from 2020 to 2024.'],
    ['trailing spaces after the thought', 'Thought: I now can give a great answer  \nFinal Answer: The file holds a bar chart.', 'The file holds a bar chart.'],
    ['prose instead of "Thought:"', 'I have looked at the file.\nFinal Answer: A short clip of a red ball.', 'A short clip of a red ball.'],
    ['the whole reply in a fence', '```\nThought: I now know the final answer\nFinal Answer: hi\n```', 'hi'],
    ['code fences in the thought', 'I will write the file.\n\n```python\nopen("x.txt", "w").write("2, 3, 5")\n```\n\nDone.\n\nFinal Answer: x.txt holds 2, 3 and 5.', 'x.txt holds 2, 3 and 5.'],
    [
      'fenced actions with made-up observations, then a final answer',
      '```\nThought: get step 1\nAction: get_data\nAction Input: {"step":"step1"}\nObservation: {"data":"one"}\n```\n\n```\nThought: I have it all\nFinal Answer: one\ntwo\n```',
      'one\ntwo',
    ],
  ])('%s is a final answer', (_shape, reply, answer) => {
    expect(parseReact(reply)).toMatchObject({ kind: 'final', answer });
  });

  it.each([
    ['a made-up observation after the input', 'Thought: look it up\nAction: exa_search\nAction Input: {"query": "AI"}\nObservation: Results about AI.\n', 'exa_search', { query: 'AI' }],
    ['an observation cut short', 'Thought: compute\nAction: calculate\nAction Input: {"expression":"10 * 5"}\nObservation: 50', 'calculate', { expression: '10 * 5' }],
    ['a fence around action and observation', '```\nThought: go on\nAction: get_data\nAction Input: {"step":"step3"}\nObservation: incomplete  \n```', 'get_data', { step: 'step3' }],
    ['an opening fence only', '```\nThought: search first\nAction: search_web\nAction Input: {"query":"Test query"}', 'search_web', { query: 'Test query' }],
    ['a closing fence after the input', '```\nThought: search\nAction: search_web\nAction Input: {"query":"population of Tokyo"}\n```\n', 'search_web', { query: 'population of Tokyo' }],
    ['an empty input and an observation in a fence', '```\nThought: again\nAction: get_final_answer\nAction Input: {}\nObservation: 42\n```', 'get_final_answer', {}],
    ['a tool name with spaces and trailing blanks', 'I need a draft.\n\nAction: Test Tool  \nAction Input: {"query": "Write about agents"}  ', 'Test Tool', { query: 'Write about agents' }],
    ['no thought at all, and a URL with = and & in the input', 'Action: Add image to content\nAction Input: {"image_url": "https://example.test/a.jpg?s=612&w=0", "action": "Describe it"}', 'Add image to content', { image_url: 'https://example.test/a.jpg?s=612&w=0', action: 'Describe it' }],
  ])('%s is an action', (_shape, reply, tool, input) => {
    expect(parseReact(reply)).toMatchObject({ kind: 'action', tool, input });
  });

  it("CrewAI's delegation, any key order, with an empty observation after it, resolves to delegate_work", () => {
    const reply =
      'Thought: the Researcher should do this.\n\nAction: Delegate work to coworker\nAction Input: {"coworker": "Researcher", "task": "Find 5 ideas", "context": "An article — about AI"}\n\nObservation:';
    const step = parseReact(reply);
    expect(step).toMatchObject({ kind: 'action', tool: 'Delegate work to coworker', input: { coworker: 'Researcher', task: 'Find 5 ideas', context: 'An article — about AI' } });
    const tools = ['delegate_work', 'ask_question'];
    expect(step.kind === 'action' && resolveToolName(step.tool, step.input, tools, (t) => t, { fuzzy: true })).toMatchObject({
      tool: 'delegate_work',
      args: { task: 'Find 5 ideas', context: 'An article — about AI', coworker: 'Researcher' },
    });
  });

  it('prose that happens to hold "Action:" but no input is the final answer as written', () => {
    const reply = '1. **Agents at Work**\n   Software that acts alone.\n\n2. **AI for Climate Action: New Tools**\n   Models that cut emissions.';
    expect(parseReact(reply)).toEqual({ kind: 'final', answer: reply, thought: undefined, readAs: [] });
  });
});
