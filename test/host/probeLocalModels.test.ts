import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { LOCAL_MODEL_SERVERS, probeLocalModels } from '../../runtime/host/probeLocalModels';
import { startScriptedServer, type ScriptedServer } from '../support/scriptedServer';

let server: ScriptedServer | undefined;
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await server?.close();
  server = undefined;
  for (const close of closers.splice(0)) await close();
});

const portOf = (baseUrl: string) => Number(new URL(baseUrl).port);

/** A port nothing listens on: bound, then closed. */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

describe('Connect a model looks for local servers on 127.0.0.1 only', () => {
  it('probes the usual ports of Ollama, LM Studio and vLLM, on 127.0.0.1', () => {
    expect(LOCAL_MODEL_SERVERS.map((s) => [s.id, s.port])).toEqual([
      ['ollama', 11434],
      ['lmstudio', 1234],
      ['vllm', 8000],
    ]);
  });

  it('lists the models of a server that answers, and says which did not', async () => {
    server = await startScriptedServer({ models: ['qwen2.5', 'llama3.1'] });
    const none = await closedPort();
    const found = await probeLocalModels([
      { id: 'ollama', label: 'Ollama', port: portOf(server.baseUrl) },
      { id: 'vllm', label: 'vLLM', port: none },
    ]);
    expect(found).toEqual([
      { id: 'ollama', label: 'Ollama', baseUrl: `http://127.0.0.1:${portOf(server.baseUrl)}/v1`, found: true, models: ['llama3.1', 'qwen2.5'] },
      { id: 'vllm', label: 'vLLM', baseUrl: `http://127.0.0.1:${none}/v1`, found: false, models: [] },
    ]);
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /v1/models']);
  });

  it('does not follow a redirect, and reads a server that answers otherwise as found with no models', async () => {
    let hits = 0;
    const redirecting = createServer((_req, res) => {
      hits += 1;
      res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
    });
    await new Promise<void>((r) => redirecting.listen(0, '127.0.0.1', r));
    closers.push(() => new Promise<void>((r) => redirecting.close(() => r())));
    const port = (redirecting.address() as AddressInfo).port;
    const [found] = await probeLocalModels([{ id: 'lmstudio', label: 'LM Studio', port }]);
    expect(found).toMatchObject({ found: true, models: [], error: 'it answered 302 to GET /v1/models' });
    expect(hits).toBe(1);
  });
});
