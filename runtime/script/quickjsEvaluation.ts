import type { QuickJSContext, QuickJSHandle, QuickJSRuntime, QuickJSWASMModule } from 'quickjs-emscripten';
import { ScriptError, ScriptTimeout } from './scriptErrors';

/**
 * QuickJS itself: one script in a fresh QuickJS runtime, with nothing but the language built-ins (no
 * require, process, fetch, timers or filesystem). It runs synchronously on the thread that calls it,
 * which is the sandbox worker (sandboxWorker.ts), never the host's main thread: runtime/script/sandbox.ts.
 */

export interface EvaluationRequest {
  code: string;
  /** The names of the globals, and their values as one JSON object. */
  names: string[];
  globalsJson: string;
  timeoutMs: number;
  memoryLimitBytes: number;
  stackSizeBytes: number;
}

const FILENAME = 'script.js';
/** The user's code starts on the wrapper's first line, so line numbers need no shift; columns on line 1 do. */
const PREFIX = '(function () {';
const SUFFIX = '\n})()';

let modulePromise: Promise<QuickJSWASMModule> | undefined;

/**
 * The WebAssembly module is loaded once. (Not `getQuickJS()`: its singleton cannot be replaced, and a
 * module whose host stack overflowed mid-call is left inconsistent and must be dropped.)
 */
export function loadQuickJS(): Promise<QuickJSWASMModule> {
  modulePromise ??= import('quickjs-emscripten').then((quickjs) => quickjs.newQuickJSWASMModule());
  return modulePromise;
}

/** The script's result as JSON text (undefined when it returned nothing JSON can carry); a ScriptError otherwise. */
export async function evaluateScript(request: EvaluationRequest): Promise<string | undefined> {
  const module = await loadQuickJS();
  const { code, names, globalsJson, timeoutMs, memoryLimitBytes: memoryLimit, stackSizeBytes: stackSize } = request;

  const runtime = module.newRuntime();
  let vm: QuickJSContext | undefined;
  let hostFailure = false;
  let timedOut = false;
  try {
    runtime.setMemoryLimit(memoryLimit);
    runtime.setMaxStackSize(stackSize);
    const deadline = Date.now() + timeoutMs;
    runtime.setInterruptHandler(() => (timedOut ||= Date.now() > deadline));
    vm = runtime.newContext();
    const context = vm;
    const failure = (error: QuickJSHandle): ScriptError => {
      runtime.removeInterruptHandler();
      if (timedOut) return new ScriptTimeout(timeoutMs);
      return toScriptError(context, error, memoryLimit);
    };
    const neverSettles = () => new ScriptTimeout(timeoutMs, 'it returned a promise that never settles (nothing is left to run)');
    const value = run(context, runtime, code, names, globalsJson, failure, neverSettles);
    // The interrupt is an exception inside the sandbox, and a Promise executor or a catch-all can
    // swallow it (`new Promise(() => { for (;;) {} })` ends "normally"): the deadline decides.
    if (timedOut) throw new ScriptTimeout(timeoutMs);
    return value;
  } catch (error) {
    if (error instanceof ScriptError) throw error;
    // Anything else came from the host side of the boundary (e.g. the thread's own stack overflowing
    // inside the WebAssembly call) or from a bug here. Either way the module's state can no longer be trusted.
    hostFailure = true;
    modulePromise = undefined;
    if (error instanceof RangeError) throw new ScriptError('script failed: stack overflow (host stack exhausted)');
    throw error;
  } finally {
    try {
      vm?.dispose();
      runtime.dispose();
    } catch (error) {
      // A leak after a host failure is expected; otherwise it is a bug in this file.
      modulePromise = undefined;
      if (!hostFailure) throw error;
    }
  }
}

function run(
  vm: QuickJSContext,
  runtime: QuickJSRuntime,
  code: string,
  names: string[],
  globalsJson: string,
  failure: (error: QuickJSHandle) => ScriptError,
  neverSettles: () => ScriptError,
): string | undefined {
  // Taken before user code runs, so a script that replaces JSON only breaks itself.
  const json = vm.getProp(vm.global, 'JSON');
  const stringify = vm.getProp(json, 'stringify');
  const parse = vm.getProp(json, 'parse');
  json.dispose();
  try {
    defineGlobals(vm, parse, names, globalsJson, failure);
    const result = vm.evalCode(PREFIX + code + SUFFIX, FILENAME);
    if (result.error) {
      const error = failure(result.error);
      result.error.dispose();
      throw error;
    }
    const value = settle(vm, runtime, result.value, failure, neverSettles);
    try {
      return toHost(vm, stringify, value, failure);
    } finally {
      value.dispose();
    }
  } finally {
    stringify.dispose();
    parse.dispose();
  }
}

function defineGlobals(
  vm: QuickJSContext,
  parse: QuickJSHandle,
  names: string[],
  globalsJson: string,
  failure: (error: QuickJSHandle) => ScriptError): void {
  const text = vm.newString(globalsJson);
  const parsed = vm.callFunction(parse, vm.undefined, text);
  text.dispose();
  if (parsed.error) {
    const error = failure(parsed.error);
    parsed.error.dispose();
    throw error;
  }
  const object = parsed.value;
  try {
    // Keys whose value is undefined are absent from the JSON; reading them gives undefined, as wanted.
    for (const name of names) {
      const value = vm.getProp(object, name);
      vm.setProp(vm.global, name, value);
      value.dispose();
    }
  } finally {
    object.dispose();
  }
}

/**
 * A returned promise is settled by running the job queue. There is nothing asynchronous to wait for
 * (no timers, no I/O), so one still pending once the queue is empty would wait forever: a timeout.
 */
function settle(
  vm: QuickJSContext,
  runtime: QuickJSRuntime,
  handle: QuickJSHandle,
  failure: (error: QuickJSHandle) => ScriptError,
  neverSettles: () => ScriptError,
): QuickJSHandle {
  let state = vm.getPromiseState(handle);
  if (state.type === 'fulfilled' && state.notAPromise) return handle;
  if (state.type === 'pending') {
    const jobs = runtime.executePendingJobs();
    if (jobs.error) {
      handle.dispose();
      const error = failure(jobs.error);
      jobs.error.dispose();
      throw error;
    }
    state = vm.getPromiseState(handle);
  }
  handle.dispose();
  if (state.type === 'fulfilled') return state.value;
  if (state.type === 'rejected') {
    const error = failure(state.error);
    state.error.dispose();
    throw error;
  }
  throw neverSettles();
}

function toHost(vm: QuickJSContext, stringify: QuickJSHandle, value: QuickJSHandle, failure: (error: QuickJSHandle) => ScriptError): string | undefined {
  if (vm.typeof(value) === 'undefined') return undefined;
  const text = vm.callFunction(stringify, vm.undefined, value);
  if (text.error) {
    const error = failure(text.error);
    text.error.dispose();
    throw new ScriptError(`script result is not JSON-serialisable: ${error.message}`, error.line, error.column, error.errorName);
  }
  try {
    // JSON.stringify gives undefined for functions and symbols. The host parses the text.
    return vm.typeof(text.value) === 'string' ? vm.getString(text.value) : undefined;
  } finally {
    text.value.dispose();
  }
}

function toScriptError(vm: QuickJSContext, handle: QuickJSHandle, memoryLimit: number): ScriptError {
  let thrown: unknown;
  try {
    thrown = vm.dump(handle);
  } catch {
    thrown = undefined;
  }
  if (!isErrorLike(thrown)) return new ScriptError(`script threw ${describe(thrown)}`);
  const { name, message } = thrown;
  if (name === 'InternalError' && message === 'out of memory') {
    return new ScriptError(`script ran out of memory (limit ${formatBytes(memoryLimit)})`, undefined, undefined, name);
  }
  const where = userPosition(thrown);
  const at = where ? ` at line ${where.line}` : '';
  return new ScriptError(`${name}: ${message}${at}`, where?.line, where?.column, name);
}

interface ErrorLike {
  name: string;
  message: string;
  stack?: string;
  fileName?: string;
  lineNumber?: number;
}

function isErrorLike(value: unknown): value is ErrorLike {
  return typeof value === 'object' && value !== null && typeof (value as ErrorLike).message === 'string' && typeof (value as ErrorLike).name === 'string';
}

/** The innermost frame in the user's code (syntax errors carry their own position). */
function userPosition(error: ErrorLike): { line: number; column?: number } | undefined {
  const escaped = FILENAME.replace('.', '\\.');
  const match = new RegExp(`${escaped}:(\\d+)(?::(\\d+))?`).exec(error.stack ?? '');
  if (match) return fromWrapper(Number(match[1]), match[2] === undefined ? undefined : Number(match[2]));
  if (error.fileName === FILENAME && typeof error.lineNumber === 'number') return fromWrapper(error.lineNumber, undefined);
  return undefined;
}

function fromWrapper(line: number, column: number | undefined): { line: number; column?: number } {
  if (column !== undefined && line === 1) column = Math.max(1, column - PREFIX.length);
  return column === undefined ? { line } : { line, column };
}

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

function formatBytes(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;
}
