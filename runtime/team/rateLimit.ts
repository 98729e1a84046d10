import type { Redis } from 'ioredis';
import { withTimeout } from './connections';

/**
 * A token bucket per key in Redis, shared by every server behind the load balancer: `perMinute` requests
 * a minute, in bursts of up to `perMinute`. Redis's own clock (TIME) is used, so servers' clocks do not
 * matter. Returns 0 when the request may go, else the seconds to wait (for Retry-After).
 */
const BUCKET = `
local rate = tonumber(ARGV[1])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local refill = rate / 60000
local state = redis.call('HMGET', KEYS[1], 't', 'n')
local last = tonumber(state[1]) or now
local tokens = tonumber(state[2]) or rate
tokens = math.min(rate, tokens + math.max(0, now - last) * refill)
local wait = 0
if tokens >= 1 then tokens = tokens - 1 else wait = math.ceil((1 - tokens) / refill) end
redis.call('HSET', KEYS[1], 't', now, 'n', tostring(tokens))
redis.call('PEXPIRE', KEYS[1], math.ceil(rate / refill) + 1000)
return wait
`;

export class RateLimiter {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'crewdeck:rate:',
  ) {}

  /**
   * Seconds to wait before `keyId` may make another request (0: go). When Redis cannot answer within
   * a second the request goes: a Redis outage must not stop the API (runs are in PostgreSQL).
   */
  async check(keyId: string, perMinute: number): Promise<number> {
    try {
      const waitMs = Number(await withTimeout(this.redis.eval(BUCKET, 1, `${this.prefix}${keyId}`, String(perMinute)) as Promise<number>, 1_000, 'Redis did not answer'));
      return waitMs > 0 ? Math.max(1, Math.ceil(waitMs / 1000)) : 0;
    } catch {
      return 0;
    }
  }
}
