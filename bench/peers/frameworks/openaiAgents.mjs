// OpenAI Agents SDK: one Agent, `run()` streamed per task; the calculator is a `tool()`; delegation is
// the worker agent as a tool of the manager (agent.asTool), the SDK's manager pattern.
import { Agent, run, setDefaultOpenAIClient, setOpenAIAPI, setTracingDisabled, tool } from '@openai/agents';
import OpenAI from 'openai';
import { z } from 'zod';
import { calculate, delegationPrompt, parallelPrompt, SYSTEM, taskPrompt } from './workloads.mjs';

export const name = 'OpenAI Agents SDK';
export const streams = true;
export const persists = 'nothing (tracing disabled)';

let ready = false;
function setup(baseUrl) {
  if (ready) return;
  setDefaultOpenAIClient(new OpenAI({ baseURL: baseUrl, apiKey: 'bench' }));
  setOpenAIAPI('chat_completions');
  setTracingDisabled(true);
  ready = true;
}

const calculator = tool({
  name: 'calculator',
  description: 'Evaluates an arithmetic expression.',
  parameters: z.object({ expression: z.string() }),
  execute: async ({ expression }) => calculate(expression),
});

async function ask(agent, input) {
  const result = await run(agent, input, { stream: true });
  for await (const _ of result) { /* drain the stream */ }
  await result.completed;
  return String(result.finalOutput ?? '');
}

export async function sequential(baseUrl, tasks, withTools = false) {
  setup(baseUrl);
  const agent = new Agent({ name: 'Analyst', instructions: SYSTEM, model: 'bench', tools: withTools ? [calculator] : [] });
  let previous = '';
  for (let i = 0; i < tasks; i++) previous = await ask(agent, taskPrompt(i, previous, withTools));
  return previous;
}

export async function delegation(baseUrl, tasks) {
  setup(baseUrl);
  const worker = new Agent({ name: 'Worker', instructions: SYSTEM, model: 'bench' });
  const manager = new Agent({
    name: 'Manager',
    instructions: 'You delegate each task to the Worker and report its answer.',
    model: 'bench',
    tools: [worker.asTool({ toolName: 'delegate_to_worker', toolDescription: 'Give the Worker a task.' })],
  });
  let last = '';
  for (let i = 0; i < tasks; i++) last = await ask(manager, delegationPrompt(i));
  return last;
}

export async function parallel(baseUrl, count) {
  setup(baseUrl);
  const agent = new Agent({ name: 'Analyst', instructions: SYSTEM, model: 'bench' });
  const out = await Promise.all(Array.from({ length: count }, (_, i) => ask(agent, parallelPrompt(i))));
  return out.join('\n');
}

export async function coldOne(baseUrl) {
  return sequential(baseUrl, 1);
}
