// The floor without a client library: node:http with a keep-alive agent, the same streamed request
// bodies, the SSE reply read to its end.
import http from 'node:http';
import { SYSTEM, taskPrompt } from './workloads.mjs';

export const name = 'floor: raw node:http';
export const streams = true;
export const persists = 'nothing';

function post(agent, url, body) {
  return new Promise((resolvePost, reject) => {
    const payload = JSON.stringify(body);
    const req = http.request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload), authorization: 'Bearer bench' } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (text += d));
      res.on('end', () => resolvePost(text));
    });
    req.on('error', reject);
    req.end(payload);
  });
}

export async function sequential(baseUrl, tasks) {
  const agent = new http.Agent({ keepAlive: true });
  const url = `${baseUrl}/chat/completions`;
  let previous = '';
  for (let i = 0; i < tasks; i++) {
    const sse = await post(agent, url, { model: 'bench', stream: true, stream_options: { include_usage: true }, messages: [{ role: 'system', content: SYSTEM }, { role: 'user', content: taskPrompt(i, previous, false) }] });
    previous = sse
      .split('\n')
      .filter((l) => l.startsWith('data: {'))
      .map((l) => JSON.parse(l.slice(6)).choices[0]?.delta?.content ?? '')
      .join('');
  }
  agent.destroy();
  return previous;
}
