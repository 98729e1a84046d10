import { describe, expect, it } from 'vitest';
import { ModelCallAborted } from '../../runtime/llm/errors';
import { RateLimiter, withRateLimit, type RateLimitClock } from '../../runtime/llm/rateLimiter';
import { parseScript } from '../../runtime/llm/script';
import { ScriptedChatModel } from '../../runtime/llm/scriptedProvider';

function fakeClock(start = 0): RateLimitClock & { time: number; sleeps: number[] } {
  const clock = {
    time: start,
    sleeps: [] as number[],
    now: () => clock.time,
    sleep: async (ms: number) => {
      clock.sleeps.push(ms);
      clock.time += ms;
    },
  };
  return clock;
}

describe('RateLimiter', () => {
  it('lets maxRpm calls through per sliding 60 s window', async () => {
    const clock = fakeClock();
    const limiter = new RateLimiter(2, clock);
    await limiter.acquire();
    clock.time = 30_000;
    await limiter.acquire();
    expect(clock.sleeps).toEqual([]);
    // Third call waits until the first leaves the window (t = 60 s).
    await limiter.acquire();
    expect(clock.time).toBe(60_000);
    // Fourth waits until the second (t = 30 s) leaves: t = 90 s.
    await limiter.acquire();
    expect(clock.time).toBe(90_000);
    expect(clock.sleeps).toEqual([30_000, 30_000]);
  });

  it('does not wait once the window has passed', async () => {
    const clock = fakeClock();
    const limiter = new RateLimiter(1, clock);
    await limiter.acquire();
    clock.time = 60_001;
    await limiter.acquire();
    expect(clock.sleeps).toEqual([]);
  });

  it('stops waiting on abort', async () => {
    const controller = new AbortController();
    const clock: RateLimitClock = {
      now: () => 0,
      sleep: (_ms, signal) => new Promise((_resolve, reject) => signal?.addEventListener('abort', () => reject(new ModelCallAborted()))),
    };
    const limiter = new RateLimiter(1, clock);
    await limiter.acquire(controller.signal);
    const waiting = limiter.acquire(controller.signal);
    controller.abort();
    await expect(waiting).rejects.toBeInstanceOf(ModelCallAborted);
  });

  it('rejects a non-positive limit', () => {
    expect(() => new RateLimiter(0)).toThrow(RangeError);
  });
});

describe('withRateLimit', () => {
  it('applies every limiter before each call', async () => {
    const clock = fakeClock();
    const crew = new RateLimiter(1, clock);
    const agent = new RateLimiter(10, clock);
    const inner = new ScriptedChatModel(parseScript({ sequence: ['one', 'two'] }, 's'), { model: 'demo' });
    const limited = withRateLimit(inner, agent, crew);
    expect([limited.provider, limited.model, limited.supportsNativeTools]).toEqual(['scripted', 'demo', true]);
    expect((await limited.chat({ messages: [{ role: 'user', content: 'a' }] })).content).toBe('one');
    expect((await limited.chat({ messages: [{ role: 'user', content: 'b' }] })).content).toBe('two');
    expect(clock.sleeps).toEqual([60_000]);
  });

  it('returns the model itself when there is no limiter', () => {
    const inner = new ScriptedChatModel(parseScript({ default: 'x' }, 's'));
    expect(withRateLimit(inner)).toBe(inner);
  });
});
