import { ModelCallAborted } from './errors';

/** Waits `ms` milliseconds; an abort ends the wait early with ModelCallAborted. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export const abortableSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(new ModelCallAborted());
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(new ModelCallAborted());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, Math.max(0, ms));
    signal?.addEventListener('abort', onAbort, { once: true });
  });
