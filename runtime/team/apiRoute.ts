import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Pool } from 'pg';
import type { ApiKey, KeyScope } from './apiKeys';
import type { RunDispatch } from './dispatch';
import type { RunStreams } from './runStreams';
import type { WebhookPolicy } from './webhookPolicy';

/** What every route handler gets. */
export interface ApiContext {
  pool: Pool;
  dispatch: RunDispatch;
  streams: RunStreams;
  webhookPolicy: WebhookPolicy;
  key: ApiKey;
  req: IncomingMessage;
  res: ServerResponse;
  params: string[];
  query: URLSearchParams;
}

export interface Route {
  method: 'GET' | 'POST';
  /** Matched against the path; its groups are the route's params. */
  path: RegExp;
  scope: KeyScope;
  handle(ctx: ApiContext): Promise<void>;
}
