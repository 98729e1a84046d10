// The floor with a client library: the bare openai SDK making the same streamed chat calls in a loop
// (system + task prompt + the previous answer), with no framework around it.
import OpenAI from 'openai';
import { parallelPrompt, SYSTEM, taskPrompt } from './workloads.mjs';

export const name = 'floor: bare openai SDK';
export const streams = true;
export const persists = 'nothing';

async function ask(client, content) {
  const stream = await client.chat.completions.create({
    model: 'bench',
    stream: true,
    stream_options: { include_usage: true },
    messages: [{ role: 'system', content: SYSTEM }, { role: 'user', content }],
  });
  let text = '';
  for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
  return text;
}

export async function sequential(baseUrl, tasks) {
  const client = new OpenAI({ baseURL: baseUrl, apiKey: 'bench' });
  let previous = '';
  for (let i = 0; i < tasks; i++) previous = await ask(client, taskPrompt(i, previous, false));
  return previous;
}

export async function parallel(baseUrl, count) {
  const client = new OpenAI({ baseURL: baseUrl, apiKey: 'bench' });
  return (await Promise.all(Array.from({ length: count }, (_, i) => ask(client, parallelPrompt(i))))).join('\n');
}

export const coldOne = (baseUrl) => sequential(baseUrl, 1);
