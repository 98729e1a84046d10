// A zero-latency OpenAI-compatible chat server on 127.0.0.1 for the side-by-side benchmark. Every
// framework under test talks to it through its own client, so the wall time of a workload is the
// framework's own work plus HTTP. Replies are decided from the request alone (no per-client state):
//
//   - the last message is a tool result            → a short final answer
//   - the request offers tools, the conversation asks for one ("CALC <expr>" / "DELEGATE") and no tool
//     result is there yet                           → one native tool call, arguments filled from the
//                                                     tool's JSON schema
//   - a message contains "SLOW200"                  → the reply waits 200 ms
//   - a KaibanJS (ReAct-in-JSON) prompt             → its JSON protocol ({"finalAnswer": …} / action)
//   - otherwise                                     → a short final answer
//
// Streaming (`stream: true`) answers in SSE chunks with usage in the last one; otherwise one JSON body.
import { createServer } from 'node:http';

const ANSWER = 'Done: the figures are checked and the summary is ready. FINAL';

function text(message) {
  const c = message?.content;
  if (typeof c === 'string') return c;
  if (Array.isArray(c)) return c.map((p) => (typeof p === 'string' ? p : p?.text ?? '')).join('');
  return '';
}

function argumentsFor(tool, conversation) {
  const params = tool.function?.parameters ?? {};
  const props = params.properties ?? {};
  const args = {};
  const expr = /CALC ([0-9+*/(). -]+)/.exec(conversation)?.[1]?.trim() ?? '6 * 7';
  for (const [key, schema] of Object.entries(props)) {
    if (Array.isArray(schema.enum) && schema.enum.length) args[key] = schema.enum[0];
    else if (/expr|input|query/i.test(key)) args[key] = expr;
    else if (/coworker|agent/i.test(key)) args[key] = 'Worker';
    else if (schema.type === 'number' || schema.type === 'integer') args[key] = 1;
    else args[key] = 'Write one line on the quarterly figures.';
  }
  if (Object.keys(props).length === 0) args.input = expr;
  return args;
}

function decide(body) {
  const messages = body.messages ?? [];
  const conversation = messages.map(text).join('\n');
  const last = messages[messages.length - 1];
  const slow = conversation.includes('SLOW200');
  const tools = body.tools ?? [];
  const kaiban = /finalAnswer/.test(text(messages[0]));

  if (kaiban) {
    const wantsCalc = /CALC /.test(conversation) && !/Observation|tool result|"result"/i.test(text(last));
    const onlyOnce = messages.filter((m) => m.role === 'assistant').length === 0;
    if (wantsCalc && onlyOnce) {
      const expr = /CALC ([0-9+*/(). -]+)/.exec(conversation)[1].trim();
      return { slow, content: JSON.stringify({ thought: 'I need the calculator.', action: 'calculator', actionInput: { input: expr } }) };
    }
    return { slow, content: JSON.stringify({ finalAnswer: ANSWER }) };
  }

  if (last?.role === 'tool') return { slow, content: ANSWER };
  const wanted = /CALC /.test(conversation)
    ? tools.find((t) => /calc/i.test(t.function?.name ?? ''))
    : /DELEGATE/.test(conversation)
      ? tools.find((t) => /delegate|worker/i.test(t.function?.name ?? ''))
      : undefined;
  const hasToolResult = messages.some((m) => m.role === 'tool');
  if (wanted && !hasToolResult) {
    return { slow, toolCall: { name: wanted.function.name, arguments: JSON.stringify(argumentsFor(wanted, conversation)) } };
  }
  return { slow, content: ANSWER };
}

function usageOf(body, reply) {
  const prompt = Math.ceil(JSON.stringify(body.messages ?? []).length / 4);
  const completion = Math.ceil((reply.content ?? reply.toolCall?.arguments ?? '').length / 4) + 1;
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

let counter = 0;

function respond(res, body, reply) {
  const id = `chatcmpl-${++counter}`;
  const created = Math.floor(Date.now() / 1000);
  const model = body.model ?? 'bench';
  const usage = usageOf(body, reply);
  const toolCalls = reply.toolCall
    ? [{ index: 0, id: `call_${counter}`, type: 'function', function: { name: reply.toolCall.name, arguments: reply.toolCall.arguments } }]
    : undefined;
  const finish = toolCalls ? 'tool_calls' : 'stop';
  if (!body.stream) {
    const message = { role: 'assistant', content: reply.content ?? null, ...(toolCalls ? { tool_calls: toolCalls.map(({ index, ...c }) => c) } : {}) };
    const payload = JSON.stringify({ id, object: 'chat.completion', created, model, choices: [{ index: 0, message, finish_reason: finish, logprobs: null }], usage });
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) });
    res.end(payload);
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  const chunk = (delta, finishReason = null, extra = {}) =>
    `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, finish_reason: finishReason, logprobs: null }], ...extra })}\n\n`;
  let out = chunk({ role: 'assistant', content: '' });
  if (toolCalls) out += chunk({ tool_calls: toolCalls });
  else {
    const words = reply.content.split(/(?<= )/);
    const half = Math.ceil(words.length / 2);
    out += chunk({ content: words.slice(0, half).join('') }) + chunk({ content: words.slice(half).join('') });
  }
  out += chunk({}, finish);
  if (body.stream_options?.include_usage) out += `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [], usage })}\n\n`;
  out += 'data: [DONE]\n\n';
  res.end(out);
}

/** Starts the server; resolves to { baseUrl, requests(), close() }. */
export function startZeroServer(port = 0) {
  let requests = 0;
  const server = createServer((req, res) => {
    const parts = [];
    req.on('data', (d) => parts.push(d));
    req.on('end', () => {
      if (req.method === 'GET' && req.url.endsWith('/models')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ object: 'list', data: [{ id: 'bench', object: 'model' }] }));
        return;
      }
      if (req.method !== 'POST' || !req.url.endsWith('/chat/completions')) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `no route ${req.method} ${req.url}` } }));
        return;
      }
      requests++;
      let body;
      try {
        body = JSON.parse(Buffer.concat(parts).toString('utf8'));
      } catch {
        res.writeHead(400).end();
        return;
      }
      const reply = decide(body);
      if (reply.slow) setTimeout(() => respond(res, body, reply), 200);
      else respond(res, body, reply);
    });
  });
  server.keepAliveTimeout = 60_000;
  return new Promise((resolveStart) => {
    server.listen(port, '127.0.0.1', () => {
      const { port: bound } = server.address();
      resolveStart({
        baseUrl: `http://127.0.0.1:${bound}/v1`,
        requests: () => requests,
        close: () => new Promise((r) => { server.closeAllConnections?.(); server.close(() => r()); }),
      });
    });
  });
}

// Run on its own: `node bench/peers/zeroServer.mjs [port]` prints the base URL and serves until killed.
if (import.meta.url === `file://${process.argv[1]}`) {
  const s = await startZeroServer(Number(process.argv[2] ?? 0));
  process.stdout.write(`${s.baseUrl}\n`);
}
