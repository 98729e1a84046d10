import { describe, expect, it } from 'vitest';
import { ScriptError, ScriptGlobalsInvalid, ScriptTimeout, runScript } from '../../runtime/script/sandbox';

async function failure(promise: Promise<unknown>): Promise<ScriptError> {
  try {
    await promise;
  } catch (error) {
    return error as ScriptError;
  }
  throw new Error('expected the script to fail');
}

describe('runScript', () => {
  it('returns JSON values', async () => {
    expect(await runScript('return 1 + 2', {})).toBe(3);
    expect(await runScript('return "ok"', {})).toBe('ok');
    expect(await runScript('return null', {})).toBeNull();
    expect(await runScript('return { a: [1, { b: true }], s: "é🦀" }', {})).toStrictEqual({ a: [1, { b: true }], s: 'é🦀' });
  });

  it('keeps undefined undefined, and drops what JSON cannot carry', async () => {
    expect(await runScript('const x = 1;', {})).toBeUndefined();
    expect(await runScript('return undefined', {})).toBeUndefined();
    expect(await runScript('return () => 1', {})).toBeUndefined();
    expect(await runScript('return { f() {}, n: NaN, d: new Date(0) }', {})).toStrictEqual({ n: null, d: '1970-01-01T00:00:00.000Z' });
    await expect(runScript('return 10n', {})).rejects.toThrow(/not JSON-serialisable/);
  });

  it('receives globals as copies', async () => {
    const state = { items: ['a', 'b'], nested: { n: 1 } };
    const result = await runScript('state.items.push("c"); state.nested.n++; return output.includes("ok") && state', {
      output: 'all ok',
      state,
    });
    expect(result).toStrictEqual({ items: ['a', 'b', 'c'], nested: { n: 2 } });
    expect(state).toStrictEqual({ items: ['a', 'b'], nested: { n: 1 } });
    expect(await runScript('return [typeof missing, missing === undefined]', { missing: undefined })).toEqual(['undefined', true]);
  });

  it('refuses functions among the globals', async () => {
    await expect(runScript('return 1', { callback: () => 1 })).rejects.toThrow(ScriptGlobalsInvalid);
    await expect(runScript('return 1', { deep: { fn: () => 1 } })).rejects.toThrow(/"fn" is a function/);
  });

  it('settles a returned promise', async () => {
    expect(await runScript('return Promise.resolve(41).then((n) => n + 1)', {})).toBe(42);
    await expect(runScript('return Promise.reject(new Error("nope"))', {})).rejects.toThrow(/Error: nope/);
    await expect(runScript('return new Promise(() => {})', {})).rejects.toThrow(/never settles/);
  });

  it('stops an endless loop at the time limit, even inside try/catch', async () => {
    const error = await failure(runScript('while (true) {}', {}, { timeoutMs: 100 }));
    expect(error).toBeInstanceOf(ScriptTimeout);
    expect(error).toBeInstanceOf(ScriptError);
    expect(error.message).toBe('script timed out after 100 ms');

    const caught = await failure(runScript('try { while (true) {} } catch (e) { return "escaped" }', {}, { timeoutMs: 50 }));
    expect(caught).toBeInstanceOf(ScriptTimeout);
  });

  it('enforces the default one-second limit', async () => {
    const error = await failure(runScript('for (;;) {}', {}));
    expect(error).toBeInstanceOf(ScriptTimeout);
    expect(error.message).toBe('script timed out after 1000 ms');
  });

  it('stops a huge allocation at the memory limit, and the next script runs normally', async () => {
    const error = await failure(runScript('return "x".repeat(64 * 1024 * 1024).length', {}));
    expect(error).toBeInstanceOf(ScriptError);
    expect(error).not.toBeInstanceOf(ScriptTimeout);
    expect(error.message).toMatch(/memory.*32 MiB/);

    const small = await failure(runScript('const a = []; for (let i = 0; i < 1e6; i++) a.push({ i }); return a.length', {}, { memoryLimitBytes: 4 * 1024 * 1024 }));
    expect(small.message).toMatch(/out of memory \(limit 4 MiB\)/);

    expect(await runScript('return [1, 2, 3].map((n) => n * 2)', {})).toEqual([2, 4, 6]);
  });

  it('reports a syntax error with its line in the user code', async () => {
    const error = await failure(runScript('const a = 1;\nconst b = 2;\nconst c = ;\nreturn a + b;', {}));
    expect(error).toBeInstanceOf(ScriptError);
    expect(error.errorName).toBe('SyntaxError');
    expect(error.line).toBe(3);
    expect(error.message).toMatch(/^SyntaxError: .* at line 3$/);
  });

  it('reports a runtime error with the line where it was thrown', async () => {
    const error = await failure(runScript('const data = null;\n\nfunction read(d) {\n  return d.field;\n}\nreturn read(data);', {}));
    expect(error.errorName).toBe('TypeError');
    expect(error.line).toBe(4);
    expect(error.message).toContain('at line 4');

    const thrown = await failure(runScript('if (x > 1) {\n  throw new RangeError("too big: " + x);\n}', { x: 5 }));
    expect(thrown).toMatchObject({ errorName: 'RangeError', line: 2, message: 'RangeError: too big: 5 at line 2' });

    // Errors raised inside built-ins point at the user's call.
    expect((await failure(runScript('\nreturn JSON.parse("{bad")', {}))).line).toBe(2);
  });

  it('corrects the column on the first line for the wrapper', async () => {
    const first = await failure(runScript('return null.x', {}));
    const second = await failure(runScript('\nreturn null.x', {}));
    expect([first.line, second.line]).toEqual([1, 2]);
    expect(first.column).toBeDefined();
    expect(first.column).toBe(second.column);
  });

  it('reports a thrown non-error value', async () => {
    await expect(runScript('throw "plain"', {})).rejects.toThrow('script threw "plain"');
    await expect(runScript('throw { code: 7 }', {})).rejects.toThrow('script threw {"code":7}');
  });

  it('turns unbounded recursion into a ScriptError and refuses unsafe stack sizes', async () => {
    const error = await failure(runScript('function f() { return f() + 1 }\nreturn f()', {}));
    expect(error).toBeInstanceOf(ScriptError);
    expect(error.message).toMatch(/stack overflow/);
    await expect(runScript('return 1', {}, { stackSizeBytes: 8 * 1024 * 1024 })).rejects.toThrow(RangeError);
    expect(await runScript('function f(n) { return n ? f(n - 1) + 1 : 0 }\nreturn f(200)', {})).toBe(200);
  });

  it('refuses a result over 1 MiB of JSON in the worker, and cuts a huge thrown message (the host parses both on its main thread)', async () => {
    // Shared references: small in the script's heap, ~12 MB of JSON.
    await expect(runScript('const row = Array(1000).fill({ k: 1 }); return Array(1500).fill(row);', {}, { timeoutMs: 20_000 })).rejects.toThrow(
      /^script result is [\d,]+ characters of JSON, over the limit of 1,048,576$/,
    );
    expect(await runScript("return 'x'.repeat(1024 * 1024 - 2);", {})).toHaveLength(1024 * 1024 - 2);
    const thrown = await failure(runScript("throw new Error('y'.repeat(5e6));", {}, { timeoutMs: 10_000 }));
    expect(thrown).toBeInstanceOf(ScriptError);
    expect(thrown.message.length).toBeLessThan(4100);
    expect(thrown.message).toMatch(/^Error: y+… \(5,000,0\d\d characters, cut\)$/);
  });

  it('has no Node, network or filesystem APIs', async () => {
    const kinds = await runScript(
      'return [typeof require, typeof process, typeof fetch, typeof module, typeof Buffer, typeof setTimeout, typeof XMLHttpRequest, typeof std, typeof os, typeof globalThis.process]',
      {},
    );
    expect(kinds).toEqual(Array(10).fill('undefined'));
    await expect(runScript('return require("fs")', {})).rejects.toThrow(/ReferenceError: .*require/);
    await expect(runScript('return import("fs")', {})).rejects.toThrow(ScriptError);
  });

  it('isolates runs from each other', async () => {
    await runScript('globalThis.leak = 42; Array.prototype.evil = 1; return 1', {});
    expect(await runScript('return [typeof leak, typeof [].evil]', {})).toEqual(['undefined', 'undefined']);
  });

  it('survives many runs of every outcome without leaking (QuickJS aborts on leaked handles at dispose)', async () => {
    for (let i = 0; i < 30; i++) {
      await expect(runScript('return n * 2', { n: i })).resolves.toBe(i * 2);
      await expect(runScript('null.x', {})).rejects.toThrow(ScriptError);
      await expect(runScript('syntax error here', {})).rejects.toThrow(ScriptError);
      await expect(runScript('return "x".repeat(1 << 26)', {}, { memoryLimitBytes: 1 << 20 })).rejects.toThrow(/memory/);
      await expect(runScript('return Promise.reject(1)', {})).rejects.toThrow(ScriptError);
    }
  });
});
