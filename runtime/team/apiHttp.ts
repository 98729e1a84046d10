import type { IncomingMessage, ServerResponse } from 'node:http';
import { isBadInput } from '../badInput';
import { errorMessage } from '../errors';
import { isTransientPostgresError } from '../store/postgresErrors';
import { CursorInvalid } from './teamRuns';
import { TeamBadRequest, TeamConflict, TeamNotFound, TeamServiceUnavailable } from './teamErrors';

/** An error the API answers with its own status and code. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly field?: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), 'cache-control': 'no-store', ...headers });
  res.end(text);
}

/** `{error: {code, message, field?}}` with the status that fits what went wrong. */
export function sendError(res: ServerResponse, error: unknown): void {
  const api = toApiError(error);
  if (res.headersSent) {
    res.end();
    return;
  }
  sendJson(res, api.status, { error: { code: api.code, message: api.message, ...(api.field ? { field: api.field } : {}) } }, api.headers);
}

function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof TeamBadRequest) return new ApiError(400, 'invalid_request', error.message, error.field);
  if (error instanceof CursorInvalid) return new ApiError(400, 'invalid_request', error.message, 'cursor');
  if (error instanceof TeamNotFound) return new ApiError(404, 'not_found', error.message);
  if (error instanceof TeamConflict) return new ApiError(409, 'conflict', error.message);
  if (error instanceof TeamServiceUnavailable || isTransientPostgresError(error)) return new ApiError(503, 'unavailable', `the team database is unavailable: ${errorMessage(error)}; try again shortly`, undefined, { 'retry-after': '5' });
  if (isBadInput(error)) return new ApiError(400, 'invalid_request', errorMessage(error));
  return new ApiError(500, 'internal', `the server failed: ${errorMessage(error)}`);
}

const MAX_BODY = 8 * 1024 * 1024;

/** The request's JSON body (an object); 400 naming the problem otherwise, 413 past 8 MiB. */
export async function readJsonBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new ApiError(413, 'too_large', `the request body is larger than ${MAX_BODY} bytes`);
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ApiError(400, 'invalid_json', `the request body is not valid JSON: ${errorMessage(error)}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new ApiError(400, 'invalid_request', 'the request body must be a JSON object');
  return value as Record<string, unknown>;
}
