import type { HostResponse } from '../../shared/host-api';

export type LocalModelServer = HostResponse<'models.probeLocal'>['servers'][number];

/** Where the usual local model servers listen: probed on 127.0.0.1 only, never another host. */
export const LOCAL_MODEL_SERVERS: readonly { id: LocalModelServer['id']; label: string; port: number }[] = [
  { id: 'ollama', label: 'Ollama', port: 11434 },
  { id: 'lmstudio', label: 'LM Studio', port: 1234 },
  { id: 'vllm', label: 'vLLM', port: 8000 },
];

const MAX_BODY = 1_000_000;
const MAX_MODELS = 500;

/**
 * *Connect a model*'s search for a server on this machine, run only when the user opens that panel:
 * `GET http://127.0.0.1:<port>/v1/models` on each usual port (no redirect followed, a short deadline, the
 * body read up to 1 MB), answering which answered and the model ids they list. The renderer chooses
 * nothing here: the list is fixed (`servers` is for tests).
 */
export async function probeLocalModels(servers = LOCAL_MODEL_SERVERS, timeoutMs = 1500): Promise<LocalModelServer[]> {
  return Promise.all(servers.map((s) => probeOne(s, timeoutMs)));
}

async function probeOne(server: (typeof LOCAL_MODEL_SERVERS)[number], timeoutMs: number): Promise<LocalModelServer> {
  const baseUrl = `http://127.0.0.1:${server.port}/v1`;
  const found = { id: server.id, label: server.label, baseUrl };
  try {
    const response = await fetch(`${baseUrl}/models`, { redirect: 'manual', signal: AbortSignal.timeout(timeoutMs), headers: { accept: 'application/json' } });
    if (response.status !== 200) {
      await response.body?.cancel();
      return { ...found, found: true, models: [], error: `it answered ${response.status} to GET /v1/models` };
    }
    const text = await readBounded(response);
    return { ...found, found: true, models: modelIds(text) };
  } catch (error) {
    const timedOut = error instanceof DOMException && error.name === 'TimeoutError';
    return { ...found, found: false, models: [], ...(timedOut ? { error: 'no answer in time' } : {}) };
  }
}

async function readBounded(response: Response): Promise<string> {
  const reader: ReadableStreamDefaultReader<Uint8Array> | undefined = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY) {
      await reader.cancel();
      break;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** `{ data: [{ id }] }` (OpenAI's shape; Ollama, LM Studio and vLLM answer it), sorted; anything else lists none. */
function modelIds(text: string): string[] {
  try {
    const body = JSON.parse(text) as { data?: unknown };
    if (!Array.isArray(body.data)) return [];
    const ids = body.data.flatMap((m: unknown) => (m !== null && typeof m === 'object' && typeof (m as { id?: unknown }).id === 'string' ? [(m as { id: string }).id.slice(0, 300)] : []));
    return [...new Set(ids)].slice(0, MAX_MODELS).sort();
  } catch {
    return [];
  }
}
