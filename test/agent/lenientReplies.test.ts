import { afterEach, describe, expect, it } from 'vitest';
import { agentPrompts, crew, ofType, runCrew, scripted } from '../support/crewHarness';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

async function run(doc: ReturnType<typeof crew>) {
  const out = await runCrew(doc);
  cleanups.push(out.ws.remove);
  return out;
}

/** One agent, one task; ReAct with the calculator unless `native`, no tools when `tools` is false. */
function solver(replies: string[], { native = false, tools = true, task = {} }: { native?: boolean; tools?: boolean; task?: Record<string, unknown> } = {}) {
  const llm = scripted({ sequence: replies }, 'solver', native ? {} : { nativeTools: false });
  return crew({
    agents: [{ id: 'a', role: 'Solver', goal: 'solve', llm, tools: tools ? [{ tool: 'calculator' }] : [] }],
    tasks: [{ id: 't', description: 'Report the figures', expectedOutput: 'JSON', agentId: 'a', ...task }],
  });
}

const jsonTask = { output: { format: 'json', schema: { type: 'object', properties: { a: { type: 'number' } }, required: ['a'] } } };

describe('what real models reply', () => {
  it('a fenced final answer gives the answer without the fence, and the JSON of a JSON task', async () => {
    const { result, events } = await run(solver(['```\nThought: I now know the final answer\nFinal Answer: {"a":1}\n```'], { task: jsonTask }));
    expect(result.output).toBe('{"a":1}');
    expect(ofType(events, 'task.completed')[0]).toMatchObject({ raw: '{"a":1}', json: { a: 1 } });
    expect(ofType(events, 'task.completed')[0]!.readAs).toBeUndefined();
    expect(ofType(events, 'agent.completed')[0]!.readAs).toEqual(['fenced-final-answer']);
  });

  it('a reply with two "Final Answer:" markers gives the text after the last one', async () => {
    const { result, events } = await run(solver(['Final Answer: a first draft\nThought: no, better\nFinal Answer: the answer']));
    expect(result.output).toBe('the answer');
    expect(ofType(events, 'agent.completed')[0]!.readAs).toEqual(['last-final-answer']);
  });

  it.each([
    ['a fenced JSON reply', 'Final Answer: ```json\n{"a": 2}\n```', ['fenced-json']],
    ['JSON among chatty prose', 'Final Answer: Sure! Here is the JSON you asked for:\n\n{"a": 2}\n\nLet me know if you need anything else.', ['json-in-prose']],
    ['JSON with a ** prefix', 'Final Answer: **JSON:** {"a": 2}', ['json-in-prose']],
  ])('a JSON task reads %s', async (_shape, reply, readAs) => {
    const { result, events } = await run(solver([reply], { task: jsonTask }));
    expect(result.status).toBe('completed');
    expect(ofType(events, 'task.completed')[0]).toMatchObject({ json: { a: 2 }, readAs });
    expect(ofType(events, 'task.retrying')).toHaveLength(0);
  });

  it('a JSON task answered without JSON, and not converted either, fails its output check and retries with what was wrong', async () => {
    // The conversion call (outputConversion.ts) answers in prose too.
    const replies = ['Final Answer: The figures look good this quarter.', 'They look good.', 'Final Answer: {"a": 3}'];
    const { result, events } = await run(solver(replies, { task: jsonTask }));
    expect(result.status).toBe('completed');
    expect(ofType(events, 'llm.started').map((e) => e.purpose)).toEqual(['agent', 'conversion', 'agent']);
    const [retrying] = ofType(events, 'task.retrying');
    expect(retrying!.reason).toBe('output must be valid JSON (the reply holds no JSON object or array; it begins "The figures look good this quarter.")');
    expect(ofType(events, 'guardrail.failed')[0]).toMatchObject({ guardrailType: 'output_json', reason: retrying!.reason });
    expect(agentPrompts(events).at(-1)).toContain('the reply holds no JSON object or array');
    expect(ofType(events, 'task.completed')[0]!.json).toEqual({ a: 3 });
  });

  it('a tool call written as text in native mode runs the tool, and the next reply completes the task', async () => {
    const { result, events } = await run(solver(['{"name": "calculator", "parameters": {"expression": "6*7"}}', 'The answer is 42.'], { native: true }));
    expect(ofType(events, 'agent.started')[0]!.mode).toBe('native');
    expect(ofType(events, 'tool.started')[0]).toMatchObject({ tool: 'calculator', args: { expression: '6*7' }, readAs: ['text-tool-call'] });
    expect(ofType(events, 'tool.completed')[0]).toMatchObject({ tool: 'calculator', result: '42' });
    expect(result.output).toBe('The answer is 42.');
    // The model sees its call as a native call and the result as the tool's reply.
    const second = ofType(events, 'llm.started')[1]!.messages;
    expect(second.at(-2)).toMatchObject({ role: 'assistant', toolCalls: [{ name: 'calculator', arguments: '{"expression":"6*7"}' }] });
    expect(second.at(-1)).toMatchObject({ role: 'tool', content: '42' });
  });

  it('a JSON reply naming no offered tool stays the answer', async () => {
    const reply = '{"name": "weather", "parameters": {"city": "Oslo"}}';
    const { result, events } = await run(solver([reply], { native: true }));
    expect(result.output).toBe(reply);
    expect(ofType(events, 'tool.started')).toHaveLength(0);
  });

  it('a ReAct tool name in ** and other case runs the tool and says how it was read', async () => {
    const { result, events } = await run(solver(['Action: **Calculator**\nAction Input: {"expression": "2+2"}', 'Final Answer: 4']));
    expect(result.output).toBe('4');
    expect(ofType(events, 'tool.started')[0]).toMatchObject({ tool: 'calculator', readAs: ['tool-name-cleaned'] });
    expect(ofType(events, 'tool.completed')[0]!.result).toBe('4');
  });

  it("CrewAI's delegation tool name and arguments delegate to the coworker", async () => {
    const lead = scripted(
      {
        sequence: [
          'Thought: the Researcher should find ideas.\nAction: **Delegate work to coworker**\nAction Input: {"task": "List 2 article ideas", "context": "An article about AI", "coworker": "Researcher"}',
          'Thought: I now know the final answer\nFinal Answer: Ideas: agents, ethics',
        ],
      },
      'lead',
      { nativeTools: false },
    );
    const researcher = scripted({ default: 'agents, ethics' }, 'researcher');
    const { result, events } = await run(
      crew({
        agents: [
          { id: 'lead', role: 'Lead', goal: 'plan the article', llm: lead, allowDelegation: true },
          { id: 'res', role: 'Researcher', goal: 'find ideas', llm: researcher },
        ],
        tasks: [{ id: 'plan', description: 'Plan the article', expectedOutput: 'ideas', agentId: 'lead' }],
      }),
    );
    expect(result.output).toBe('Ideas: agents, ethics');
    expect(ofType(events, 'tool.started')[0]).toMatchObject({ tool: 'delegate_work', readAs: ['tool-name-cleaned', 'crewai-tool-name'] });
    expect(ofType(events, 'delegation.started')[0]).toMatchObject({ manager: 'Lead', coworker: 'Researcher', task: 'List 2 article ideas', context: 'An article about AI' });
    expect(ofType(events, 'delegation.completed')[0]!.result).toBe('agents, ethics');
  });

  it("a judge model's fenced verdict and a planner's chatty plan are read, and say how", async () => {
    const judge = scripted({ default: 'Here is my verdict:\n```json\n{"pass": true, "reason": "fine"}\n```' }, 'judge');
    const planner = scripted({ default: 'Sure! Here are the plans:\n{"plans": [{"taskId": "t", "plan": "1. Add up"}]}\nGood luck!' }, 'planner');
    const doc = solver(['Final Answer: 4'], { task: { guardrails: [{ type: 'llm', criterion: 'is a number', llm: judge }] } });
    const { result, events } = await run({ ...doc, planning: { enabled: true, llm: planner } });
    expect(result.status).toBe('completed');
    expect(ofType(events, 'guardrail.passed')[0]!.readAs).toEqual(['fenced-json']);
    expect(ofType(events, 'planning.completed')[0]).toMatchObject({ plans: { t: '1. Add up' }, readAs: ['json-in-prose'] });
  });
});
