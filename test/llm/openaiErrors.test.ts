import { APIConnectionTimeoutError, BadRequestError, InternalServerError, NotFoundError } from 'openai';
import { describe, expect, it } from 'vitest';
import { ContextWindowExceeded, ModelCallFailed, ToolsUnsupported } from '../../runtime/llm/errors';
import { describeAttemptFailure, finalError } from '../../runtime/llm/openaiErrors';
import { backoffMs, BACKOFF_CAP_MS, retryAfterMs } from '../../runtime/llm/retryPolicy';

const final = (error: unknown) => finalError(describeAttemptFailure(error), 1);

describe('OpenAI error mapping', () => {
  it('recognises context-length errors by code or by message', () => {
    const byMessage = new BadRequestError(400, { message: 'Too many tokens in the prompt for this model' }, undefined, new Headers());
    expect(final(byMessage)).toBeInstanceOf(ContextWindowExceeded);
    const byCode = new BadRequestError(400, { message: 'nope', code: 'context_length_exceeded' }, undefined, new Headers());
    expect(final(byCode)).toBeInstanceOf(ContextWindowExceeded);
  });

  it('recognises servers that do not support tool calling (Ollama, vLLM)', () => {
    // Ollama sends {"error": "<text>"}.
    const ollama = new BadRequestError(400, 'registry.ollama.ai/library/gemma:2b does not support tools', undefined, new Headers());
    const mapped = final(ollama);
    expect(mapped).toBeInstanceOf(ToolsUnsupported);
    expect(mapped.message).toBe('400 registry.ollama.ai/library/gemma:2b does not support tools');
    const vllm = new BadRequestError(
      400,
      { message: '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set' },
      undefined,
      new Headers(),
    );
    expect(final(vllm)).toBeInstanceOf(ToolsUnsupported);
    const notFound = new NotFoundError(404, { message: 'function calling is not supported by this model' }, undefined, new Headers());
    expect(final(notFound)).toBeInstanceOf(ToolsUnsupported);
  });

  it('keeps other final errors as ModelCallFailed with status and code', () => {
    const bad = new BadRequestError(400, { message: 'invalid temperature', code: 'invalid_value' }, undefined, new Headers());
    const mapped = final(bad);
    expect(mapped.constructor).toBe(ModelCallFailed);
    expect([mapped.status, mapped.code]).toEqual([400, 'invalid_value']);
    expect(describeAttemptFailure(bad).retryable).toBe(false);
  });

  it('retries 5xx, 529 and timeouts', () => {
    expect(describeAttemptFailure(new InternalServerError(503, { message: 'busy' }, undefined, new Headers())).retryable).toBe(true);
    expect(describeAttemptFailure(new InternalServerError(529, { message: 'overloaded' }, undefined, new Headers())).retryable).toBe(true);
    expect(describeAttemptFailure(new InternalServerError(501, { message: 'no' }, undefined, new Headers())).retryable).toBe(false);
    expect(describeAttemptFailure(new APIConnectionTimeoutError()).retryable).toBe(true);
  });
});

describe('retry delays', () => {
  it('prefers retry-after-ms, then Retry-After seconds or HTTP date', () => {
    expect(retryAfterMs(new Headers({ 'retry-after-ms': '250', 'retry-after': '9' }))).toBe(250);
    expect(retryAfterMs(new Headers({ 'retry-after': '1.5' }))).toBe(1500);
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(retryAfterMs(new Headers({ 'retry-after': 'Wed, 01 Jan 2025 00:00:12 GMT' }), now)).toBe(12_000);
    expect(retryAfterMs(new Headers({ 'retry-after': 'soon' }))).toBeUndefined();
    expect(retryAfterMs(new Headers())).toBeUndefined();
  });

  it('backs off exponentially with jitter up to the cap', () => {
    expect(backoffMs(1, () => 0)).toBe(250);
    expect(backoffMs(1, () => 1)).toBe(500);
    expect(backoffMs(3, () => 1)).toBe(2000);
    expect(backoffMs(20, () => 1)).toBe(BACKOFF_CAP_MS);
    expect(backoffMs(20, () => 0)).toBe(BACKOFF_CAP_MS / 2);
  });
});
