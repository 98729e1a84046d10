// Mastra: an Agent on an OpenAI-compatible AI SDK model, `agent.stream()` drained per task; the
// calculator is a createTool tool (maxSteps lets the agent call it and answer); delegation is the
// worker agent called from a tool of the manager, Mastra's agent-as-tool pattern.
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { Agent } from '@mastra/core/agent';
import { createTool } from '@mastra/core/tools';
import { z } from 'zod';
import { calculate, delegationPrompt, parallelPrompt, SYSTEM, taskPrompt } from './workloads.mjs';

export const name = 'Mastra';
export const streams = true;
export const persists = 'nothing (no storage configured)';

const modelFor = (baseUrl) => createOpenAICompatible({ name: 'bench', baseURL: baseUrl, apiKey: 'bench', includeUsage: true }).chatModel('bench');

const calculator = createTool({
  id: 'calculator',
  description: 'Evaluates an arithmetic expression.',
  inputSchema: z.object({ expression: z.string() }),
  execute: async ({ context }) => calculate(context.expression),
});

async function ask(agent, prompt) {
  const stream = await agent.stream(prompt, { maxSteps: 4 });
  return String(await stream.text);
}

export async function sequential(baseUrl, tasks, withTools = false) {
  const agent = new Agent({ name: 'Analyst', instructions: SYSTEM, model: modelFor(baseUrl), tools: withTools ? { calculator } : {} });
  let previous = '';
  for (let i = 0; i < tasks; i++) previous = await ask(agent, taskPrompt(i, previous, withTools));
  return previous;
}

export async function delegation(baseUrl, tasks) {
  const worker = new Agent({ name: 'Worker', instructions: SYSTEM, model: modelFor(baseUrl) });
  const delegate = createTool({
    id: 'delegate_to_worker',
    description: 'Give the Worker a task.',
    inputSchema: z.object({ task: z.string() }),
    execute: async ({ context }) => ask(worker, context.task),
  });
  const manager = new Agent({ name: 'Manager', instructions: 'You delegate each task to the Worker and report its answer.', model: modelFor(baseUrl), tools: { delegate_to_worker: delegate } });
  let last = '';
  for (let i = 0; i < tasks; i++) last = await ask(manager, delegationPrompt(i));
  return last;
}

export async function parallel(baseUrl, count) {
  const agent = new Agent({ name: 'Analyst', instructions: SYSTEM, model: modelFor(baseUrl) });
  return (await Promise.all(Array.from({ length: count }, (_, i) => ask(agent, parallelPrompt(i))))).join('\n');
}

export const coldOne = (baseUrl) => sequential(baseUrl, 1);
