import { ScriptGlobalsInvalid } from './scriptErrors';
import { ScriptWorker } from './scriptWorker';

export { ScriptError, ScriptGlobalsInvalid, ScriptTimeout } from './scriptErrors';

/**
 * The only place user JavaScript runs: a fresh QuickJS runtime per call (quickjsEvaluation.ts), with
 * nothing but the language built-ins (no require, process, fetch, timers or filesystem), on a kept worker
 * thread that the host terminates when a script overruns its deadline (scriptWorker.ts): whatever the
 * script does, the host's event loop keeps running. Values cross the boundary as JSON.
 */

export interface ScriptOptions {
  /** Wall-clock limit for the whole script (default 1000 ms), counted from when the worker gets it. */
  timeoutMs?: number;
  /** Heap limit of the QuickJS runtime (default 32 MiB). */
  memoryLimitBytes?: number;
  /**
   * QuickJS stack limit (default 256 KiB, at most 320 KiB). QuickJS frames also use the thread's own
   * stack; should it overflow anyway, the result is a ScriptError and the WebAssembly module is reloaded.
   */
  stackSizeBytes?: number;
}

const DEFAULT_TIMEOUT_MS = 1000;
const DEFAULT_MEMORY_LIMIT = 32 * 1024 * 1024;
const DEFAULT_STACK_SIZE = 256 * 1024;
const MAX_STACK_SIZE = 320 * 1024;

/** Started on the first script (the worker loads QuickJS's WebAssembly then), not when a run starts. */
const worker = new ScriptWorker();

export async function runScript(code: string, globals: Record<string, unknown>, options: ScriptOptions = {}): Promise<unknown> {
  const globalsJson = encodeGlobals(globals);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const memoryLimitBytes = options.memoryLimitBytes ?? DEFAULT_MEMORY_LIMIT;
  const stackSizeBytes = options.stackSizeBytes ?? DEFAULT_STACK_SIZE;
  if (!(stackSizeBytes > 0 && stackSizeBytes <= MAX_STACK_SIZE)) {
    throw new RangeError(`stackSizeBytes must be between 1 and ${MAX_STACK_SIZE}, got ${stackSizeBytes}`);
  }
  const json = await worker.run({ code, names: Object.keys(globals), globalsJson, timeoutMs, memoryLimitBytes, stackSizeBytes });
  return json === undefined ? undefined : JSON.parse(json);
}

/** Stops the sandbox's worker thread (tests; hosts that shut down). The next script starts a new one. */
export function stopScriptSandbox(): Promise<void> {
  return worker.dispose();
}

/** Globals are passed by value: JSON text parsed inside the sandbox. Undefined values stay undefined. */
function encodeGlobals(globals: Record<string, unknown>): string {
  try {
    return JSON.stringify(globals, (key, value: unknown) => {
      if (typeof value === 'function' || typeof value === 'symbol') {
        throw new ScriptGlobalsInvalid(`global ${key ? `"${key}" ` : ''}is a ${typeof value}; only JSON values can be passed to a script`);
      }
      return value;
    });
  } catch (error) {
    if (error instanceof ScriptGlobalsInvalid) throw error;
    throw new ScriptGlobalsInvalid(`globals cannot be passed as JSON: ${(error as Error).message}`);
  }
}
