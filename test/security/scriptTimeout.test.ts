import { afterEach, describe, expect, it } from 'vitest';
import type { RuntimeEvent } from '../../shared/events';
import { FlowDocumentSchema } from '../../shared/model/flow';
import { evaluateCondition } from '../../runtime/crew/condition';
import { createRuntime } from '../../runtime/runtime';
import { runScript, ScriptTimeout } from '../../runtime/script/sandbox';
import { ofType, tempWorkspace } from '../support/crewHarness';

async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the script to fail');
}

let ws: ReturnType<typeof tempWorkspace> | undefined;
afterEach(() => {
  ws?.remove();
  ws = undefined;
});

describe('QuickJS scripts that never finish fail with a timeout', () => {
  it('a promise whose executor loops forever is stopped at the deadline, returned or not', async () => {
    for (const code of ['return new Promise(() => { for(;;){} })', 'new Promise(() => { for(;;){} })', 'return (async () => { for (;;) await null })()']) {
      const error = await failure(runScript(code, {}, { timeoutMs: 200 }));
      expect(error, code).toBeInstanceOf(ScriptTimeout);
      expect(error.message).toBe('script timed out after 200 ms');
    }
  });

  it('a returned promise that never settles is a timeout, not a result', async () => {
    for (const code of ['return new Promise(() => {})', 'return (async () => { await new Promise(() => {}) })()']) {
      const error = await failure(runScript(code, {}, { timeoutMs: 300 }));
      expect(error, code).toBeInstanceOf(ScriptTimeout);
      expect(error.message).toMatch(/^script timed out after 300 ms: it returned a promise that never settles/);
    }
    // Promises that do settle still give their value.
    expect(await runScript('return new Promise((resolve) => resolve(7)).then((n) => n * 6)', {})).toBe(42);
  });

  it('a task condition script that never settles fails the condition with "timed out"', async () => {
    await expect(evaluateCondition({ type: 'script', code: 'return new Promise(() => { for(;;){} })' }, 'x')).rejects.toThrow(/condition script failed: script timed out after 1000 ms/);
  });

  it('a flow script body returning a never-settling promise fails the method and the run, instead of completing with {}', async () => {
    ws = tempWorkspace('crewdeck-script-timeout-');
    const doc = FlowDocumentSchema.parse({
      kind: 'flow',
      version: 1,
      id: 'f',
      name: 'Never settles',
      methods: [
        { id: 'wait', name: 'wait', trigger: { start: true }, body: { type: 'script', code: 'state.touched = true; return new Promise(() => {})', timeoutMs: 500 } },
        { id: 'after', name: 'after', trigger: { listen: 'wait' }, body: { type: 'set_state', set: { reached: 'yes' } } },
      ],
    });
    const events: RuntimeEvent[] = [];
    const result = await createRuntime({ workspace: ws.dir, store: ws.store }).runFlow(doc, { onEvent: (e) => events.push(e) });
    expect(result.status).toBe('failed');
    expect(JSON.stringify(result.error)).toMatch(/script timed out after 500 ms/);
    expect(ofType(events, 'run.failed')).toHaveLength(1);
    expect(events.some((e) => e.type === 'run.completed')).toBe(false);

    // An async body that settles still works and keeps its state changes.
    const ok = FlowDocumentSchema.parse({
      ...doc,
      methods: [{ id: 'wait', name: 'wait', trigger: { start: true }, body: { type: 'script', code: 'return Promise.resolve(2).then((n) => { state.n = n; return { output: "n=" + n } })' } }],
    });
    const done = await createRuntime({ workspace: ws.dir, store: ws.store }).runFlow(ok, {});
    expect(done.status).toBe('completed');
    expect(done.state).toMatchObject({ n: 2 });
  });
});
