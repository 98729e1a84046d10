// LangGraph: a StateGraph whose "agent" node calls ChatOpenAI (streaming) for the current task, a
// ToolNode-style "tools" node when the model asked for one, and a "next" node that records the output
// and moves to the next task; delegation is a supervisor graph (manager node → worker node → manager).
// With `checkpointer: 'sqlite'` every super-step is checkpointed to a SQLite file (SqliteSaver).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AIMessage, HumanMessage, SystemMessage, ToolMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { Annotation, END, START, StateGraph } from '@langchain/langgraph';
import { SqliteSaver } from '@langchain/langgraph-checkpoint-sqlite';
import { ChatOpenAI } from '@langchain/openai';
import { z } from 'zod';
import { calculate, delegationPrompt, parallelPrompt, SYSTEM, taskPrompt } from './workloads.mjs';

export function make(checkpointer) {
  const sqlite = checkpointer === 'sqlite';
  const model = (baseUrl) => new ChatOpenAI({ model: 'bench', apiKey: 'bench', configuration: { baseURL: baseUrl } });
  // Streamed with .stream() and the chunks concatenated: `invoke()` with `streaming: true` would count
  // tokens with tiktoken afterwards, which downloads its encoding from the internet.
  const ask = async (llm, messages) => {
    let message;
    for await (const chunk of await llm.stream(messages)) message = message ? message.concat(chunk) : chunk;
    return message;
  };
  const compile = (graph) => {
    if (!sqlite) return { graph: graph.compile(), config: {} };
    const saver = SqliteSaver.fromConnString(join(mkdtempSync(join(tmpdir(), 'bench-langgraph-')), 'checkpoints.db'));
    return { graph: graph.compile({ checkpointer: saver }), config: { configurable: { thread_id: 'bench' } } };
  };
  const replace = (_, b) => b;

  const calculator = tool(async ({ expression }) => calculate(expression), {
    name: 'calculator',
    description: 'Evaluates an arithmetic expression.',
    schema: z.object({ expression: z.string() }),
  });

  async function sequential(baseUrl, tasks, withTools = false) {
    const llm = withTools ? model(baseUrl).bindTools([calculator]) : model(baseUrl);
    const State = Annotation.Root({
      i: Annotation({ reducer: replace, default: () => 0 }),
      previous: Annotation({ reducer: replace, default: () => '' }),
      messages: Annotation({ reducer: replace, default: () => [] }),
    });
    const graph = new StateGraph(State)
      .addNode('agent', async (s) => {
        const messages = s.messages.length ? s.messages : [new SystemMessage(SYSTEM), new HumanMessage(taskPrompt(s.i, s.previous, withTools))];
        const reply = await ask(llm, messages);
        return { messages: [...messages, reply] };
      })
      .addNode('tools', async (s) => {
        const call = s.messages[s.messages.length - 1].tool_calls[0];
        const result = await calculator.invoke(call.args);
        return { messages: [...s.messages, new ToolMessage({ content: String(result), tool_call_id: call.id })] };
      })
      .addNode('next', async (s) => ({ i: s.i + 1, previous: String(s.messages[s.messages.length - 1].content), messages: [] }))
      .addEdge(START, 'agent')
      .addConditionalEdges('agent', (s) => (s.messages[s.messages.length - 1].tool_calls?.length ? 'tools' : 'next'))
      .addEdge('tools', 'agent')
      .addConditionalEdges('next', (s) => (s.i < tasks ? 'agent' : END));
    const { graph: app, config } = compile(graph);
    const out = await app.invoke({}, { ...config, recursionLimit: tasks * 4 + 10 });
    return out.previous;
  }

  async function delegation(baseUrl, tasks) {
    const delegate = tool(async () => '', {
      name: 'delegate_to_worker',
      description: 'Give the Worker a task.',
      schema: z.object({ task: z.string() }),
    });
    const manager = model(baseUrl).bindTools([delegate]);
    const worker = model(baseUrl);
    const State = Annotation.Root({
      i: Annotation({ reducer: replace, default: () => 0 }),
      last: Annotation({ reducer: replace, default: () => '' }),
      messages: Annotation({ reducer: replace, default: () => [] }),
    });
    const graph = new StateGraph(State)
      .addNode('manager', async (s) => {
        const messages = s.messages.length
          ? s.messages
          : [new SystemMessage('You delegate each task to the Worker and report its answer.'), new HumanMessage(delegationPrompt(s.i))];
        return { messages: [...messages, await ask(manager, messages)] };
      })
      .addNode('worker', async (s) => {
        const call = s.messages[s.messages.length - 1].tool_calls[0];
        const answer = await ask(worker, [new SystemMessage(SYSTEM), new HumanMessage(String(call.args.task))]);
        return { messages: [...s.messages, new ToolMessage({ content: String(answer.content), tool_call_id: call.id })] };
      })
      .addNode('next', async (s) => ({ i: s.i + 1, last: String(s.messages[s.messages.length - 1].content), messages: [] }))
      .addEdge(START, 'manager')
      .addConditionalEdges('manager', (s) => (s.messages[s.messages.length - 1].tool_calls?.length ? 'worker' : 'next'))
      .addEdge('worker', 'manager')
      .addConditionalEdges('next', (s) => (s.i < tasks ? 'manager' : END));
    const { graph: app, config } = compile(graph);
    const out = await app.invoke({}, { ...config, recursionLimit: tasks * 4 + 10 });
    return out.last;
  }

  async function parallel(baseUrl, count) {
    const llm = model(baseUrl);
    const State = Annotation.Root({ answers: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }) });
    let graph = new StateGraph(State);
    for (let i = 0; i < count; i++) {
      graph = graph.addNode(`branch${i}`, async () => ({ answers: [String((await ask(llm, [new HumanMessage(parallelPrompt(i))])).content)] }));
      graph = graph.addEdge(START, `branch${i}`).addEdge(`branch${i}`, END);
    }
    const { graph: app, config } = compile(graph);
    const out = await app.invoke({}, config);
    return out.answers.join('\n');
  }

  return {
    name: sqlite ? 'LangGraph + SQLite checkpointer' : 'LangGraph',
    streams: true,
    persists: sqlite ? 'a checkpoint per super-step (SQLite file)' : 'nothing',
    sequential,
    delegation,
    parallel,
    coldOne: (baseUrl) => sequential(baseUrl, 1),
  };
}

export const { name, streams, persists, sequential, delegation, parallel, coldOne } = make('none');
