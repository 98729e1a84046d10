import type { RuntimeEvent } from '../../shared/events';
import { errorMessage } from '../errors';

/** The team server answered with an error (`{error: {code, message, field?}}`). */
export class TeamApiError extends Error {
  override name = 'TeamApiError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly field?: string,
  ) {
    super(`${message} (HTTP ${status})`);
  }
}

/** The team server could not be reached, or did not answer in time: never a hang. */
export class TeamUnreachable extends Error {
  override name = 'TeamUnreachable';
}

export interface StreamOptions {
  after?: number;
  signal?: AbortSignal;
  /** A stream that brings nothing (not even its keep-alive, every 15 s) for this long is reconnected. Default 45 s. */
  idleMs?: number;
  /** Give up when reconnecting has brought nothing for this long. Default 120 s. */
  giveUpMs?: number;
}

/**
 * The /v1 API from the CLI and the app. Every request has a deadline (default 30 s) and says which
 * server failed and how; the event stream reconnects with Last-Event-ID, so nothing is lost or repeated.
 */
export class TeamClient {
  readonly baseUrl: string;

  constructor(
    baseUrl: string,
    private readonly key: string,
    private readonly timeoutMs = 30_000,
  ) {
    this.baseUrl = baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '');
  }

  async request<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    let response: Response;
    try {
      response = await fetch(`${this.baseUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${this.key}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      throw this.unreachable(error);
    }
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      throw new TeamUnreachable(`${this.baseUrl} answered HTTP ${response.status} with something that is not JSON: is it a Crewdeck team server?`);
    }
    if (!response.ok) {
      const error = (parsed as { error?: { code?: string; message?: string; field?: string } } | undefined)?.error;
      throw new TeamApiError(response.status, error?.code ?? 'error', error?.message ?? `HTTP ${response.status}`, error?.field);
    }
    return parsed as T;
  }

  private unreachable(error: unknown): TeamUnreachable {
    const name = (error as { name?: string }).name;
    if (name === 'TimeoutError') return new TeamUnreachable(`the team server at ${this.baseUrl} did not answer within ${this.timeoutMs / 1000} s`);
    const cause = (error as { cause?: unknown }).cause;
    return new TeamUnreachable(`could not reach the team server at ${this.baseUrl}: ${errorMessage(cause ?? error)}`);
  }

  /**
   * The run's events from `after` on, as the server commits them, until the run ends. A dropped or silent
   * connection is reopened with Last-Event-ID (the last seq received).
   */
  async *stream(runId: string, options: StreamOptions = {}): AsyncGenerator<RuntimeEvent, { status: string }> {
    let cursor = options.after ?? 0;
    let lastProgress = Date.now();
    for (;;) {
      if (options.signal?.aborted) throw options.signal.reason;
      let ended: { status: string } | undefined;
      try {
        for await (const message of this.openStream(runId, cursor, options)) {
          lastProgress = Date.now();
          if (message.event === 'end') {
            ended = JSON.parse(message.data) as { status: string };
            break;
          }
          const event = JSON.parse(message.data) as RuntimeEvent;
          if (event.seq <= cursor) continue;
          cursor = event.seq;
          yield event;
        }
      } catch (error) {
        if (error instanceof TeamApiError || options.signal?.aborted) throw error;
      }
      if (ended) return ended;
      if (Date.now() - lastProgress > (options.giveUpMs ?? 120_000)) throw new TeamUnreachable(`the team server at ${this.baseUrl} sent nothing for run ${runId} for ${Math.round((options.giveUpMs ?? 120_000) / 1000)} s`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }

  private async *openStream(runId: string, after: number, options: StreamOptions): AsyncGenerator<{ event?: string; data: string }> {
    const idle = new AbortController();
    const signal = options.signal ? AbortSignal.any([idle.signal, options.signal]) : idle.signal;
    let timer = setTimeout(() => idle.abort(), options.idleMs ?? 45_000);
    const response = await fetch(`${this.baseUrl}/v1/runs/${encodeURIComponent(runId)}/stream`, {
      headers: { authorization: `Bearer ${this.key}`, accept: 'text/event-stream', 'last-event-id': String(after) },
      signal,
    }).catch((error: unknown) => {
      clearTimeout(timer);
      throw this.unreachable(error);
    });
    if (!response.ok || !response.body) {
      clearTimeout(timer);
      const text = await response.text().catch(() => '');
      const error = (JSON.parse(text || '{}') as { error?: { code?: string; message?: string } }).error;
      throw new TeamApiError(response.status, error?.code ?? 'error', error?.message ?? `HTTP ${response.status}`);
    }
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        clearTimeout(timer);
        timer = setTimeout(() => idle.abort(), options.idleMs ?? 45_000);
        buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const message = parseSseBlock(block);
          if (message) yield message;
        }
      }
    } finally {
      clearTimeout(timer);
    }
  }
}

/** One SSE message (comments and blank blocks give none). */
export function parseSseBlock(block: string): { event?: string; data: string; id?: string } | undefined {
  let event: string | undefined;
  let id: string | undefined;
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line === '' || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'data') data.push(value);
    else if (field === 'event') event = value;
    else if (field === 'id') id = value;
  }
  if (data.length === 0) return undefined;
  return { ...(event ? { event } : {}), ...(id ? { id } : {}), data: data.join('\n') };
}
