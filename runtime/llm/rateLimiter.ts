import { abortableSleep, type Sleep } from './abortableSleep';
import type { ChatModel, ChatRequest, ChatResponse } from './chatModel';
import { ModelCallAborted } from './errors';

export interface RateLimitClock {
  now(): number;
  sleep: Sleep;
}

const WINDOW_MS = 60_000;
const systemClock: RateLimitClock = { now: () => Date.now(), sleep: abortableSleep };

/** At most `maxRpm` acquisitions in any sliding 60-second window. */
export class RateLimiter {
  /** Times of the acquisitions still inside the window, oldest first. */
  private readonly stamps: number[] = [];

  constructor(
    readonly maxRpm: number,
    private readonly clock: RateLimitClock = systemClock,
  ) {
    if (!Number.isInteger(maxRpm) || maxRpm <= 0) throw new RangeError(`maxRpm must be a positive integer, got ${maxRpm}`);
  }

  /** Resolves when a call may start; an abort while waiting throws ModelCallAborted. */
  async acquire(signal?: AbortSignal): Promise<void> {
    for (;;) {
      if (signal?.aborted) throw new ModelCallAborted();
      const now = this.clock.now();
      for (let oldest = this.stamps[0]; oldest !== undefined && oldest <= now - WINDOW_MS; oldest = this.stamps[0]) this.stamps.shift();
      if (this.stamps.length < this.maxRpm) {
        this.stamps.push(now);
        return;
      }
      // Here stamps holds maxRpm calls or more.
      await this.clock.sleep(this.stamps[0]! + WINDOW_MS - now, signal);
    }
  }
}

/** A model whose every call first acquires each limiter (agent-level and crew-level limits both apply). */
export function withRateLimit(model: ChatModel, ...limiters: RateLimiter[]): ChatModel {
  if (limiters.length === 0) return model;
  return {
    provider: model.provider,
    model: model.model,
    supportsNativeTools: model.supportsNativeTools,
    price: model.price,
    async chat(request: ChatRequest): Promise<ChatResponse> {
      for (const limiter of limiters) await limiter.acquire(request.signal);
      return model.chat(request);
    },
  };
}
