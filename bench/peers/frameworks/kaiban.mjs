// KaibanJS: a Team of one Agent and N Tasks (KaibanJS runs a team's tasks in order and hands each one
// the earlier results); the calculator is a LangChain tool. KaibanJS's agents speak a ReAct protocol in
// JSON, so the server answers them in it. KaibanJS has no manager→worker delegation: W3 is not run.
import { tool } from '@langchain/core/tools';
import { Agent, Task, Team } from 'kaibanjs';
import { z } from 'zod';
import { calculate, parallelPrompt, SYSTEM, taskPrompt } from './workloads.mjs';

export const name = 'KaibanJS';
export const streams = false;
export const persists = 'workflow logs in memory (its zustand store)';

const calculator = tool(async ({ input }) => calculate(input), {
  name: 'calculator',
  description: 'Evaluates an arithmetic expression.',
  schema: z.object({ input: z.string() }),
});

function agent(baseUrl, withTools) {
  return new Agent({
    name: 'Analyst',
    role: 'Analyst',
    goal: SYSTEM,
    background: 'Careful with numbers.',
    tools: withTools ? [calculator] : [],
    maxIterations: 4,
    llmConfig: { provider: 'openai', model: 'gpt-4o-mini', apiKey: 'bench', apiBaseUrl: baseUrl, configuration: { baseURL: baseUrl } },
  });
}

async function start(team) {
  const out = await team.start();
  if (out.status !== 'FINISHED') throw new Error(`KaibanJS team ended ${out.status}`);
  return String(out.result ?? '');
}

export async function sequential(baseUrl, tasks, withTools = false) {
  const analyst = agent(baseUrl, withTools);
  // KaibanJS hands each task the earlier results itself, so the prompt carries no "previous output".
  const list = Array.from({ length: tasks }, (_, i) => new Task({ description: taskPrompt(i, '', withTools), expectedOutput: 'One line.', agent: analyst }));
  return start(new Team({ name: 'Bench', agents: [analyst], tasks: list, logLevel: 'error', env: { OPENAI_API_KEY: 'bench' } }));
}

export const delegation = undefined;

export async function parallel(baseUrl, count) {
  const agents = Array.from({ length: count }, () => agent(baseUrl, false));
  const list = agents.map((a, i) => new Task({ description: parallelPrompt(i), expectedOutput: 'One line.', agent: a, allowParallelExecution: true }));
  return start(new Team({ name: 'Bench', agents, tasks: list, logLevel: 'error', env: { OPENAI_API_KEY: 'bench' } }));
}

export const coldOne = (baseUrl) => sequential(baseUrl, 1);
