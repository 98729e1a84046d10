import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { RuntimeEvent } from '../../shared/events';
import { FlowDocumentSchema } from '../../shared/model/flow';
import { LiveTree } from '../../runtime/cli/liveTree';
import { createStyle } from '../../runtime/cli/style';
import { createRuntime } from '../../runtime/runtime';
import { tempWorkspace } from '../support/crewHarness';

/** A flow whose middle method is an imported CrewAI stub (a pass-through script naming its Python). */
const flow = FlowDocumentSchema.parse({
  kind: 'flow',
  version: 1,
  id: 'stubbed',
  name: 'Stubbed',
  persist: false,
  methods: [
    { id: 'begin', name: 'begin', trigger: { start: true }, body: { type: 'script', code: 'return "hello";' } },
    {
      id: 'tidy',
      name: 'tidy',
      trigger: { listen: 'begin' },
      body: {
        type: 'script',
        code: 'return input;',
        stub: { python: '    def tidy(self):\n        for i in range(self.state.count):\n            print(i)', file: 'src/counter/main.py', line: 23 },
      },
    },
    { id: 'finish', name: 'finish', trigger: { listen: 'tidy' }, body: { type: 'script', code: 'return input + "!";' } },
  ],
});

describe('the CLI live tree: an imported CrewAI stub is visible where it runs', () => {
  it('prints flow.stub.reached under the stub method (file:line and its first statement), once, and not for the other methods', async () => {
    const ws = tempWorkspace('crewdeck-livetree-stub-');
    let out = '';
    const tree = new LiveTree({
      out: new Writable({
        write(chunk, _encoding, done) {
          out += String(chunk);
          done();
        },
      }),
      style: createStyle(false),
      spinner: false,
    });
    try {
      const events: RuntimeEvent[] = [];
      const result = await createRuntime({ workspace: ws.dir, store: ws.store }).runFlow(flow, {
        onEvent: (e) => {
          events.push(e);
          tree.handle(e);
        },
      });
      expect(result).toMatchObject({ status: 'completed', output: 'hello!' });
      expect(events.filter((e) => e.type === 'flow.stub.reached')).toHaveLength(1);
      const lines = out.trimEnd().split('\n');
      const stubLines = lines.filter((l) => l.includes('is a stub'));
      expect(stubLines).toEqual(['⚠ tidy is a stub for CrewAI Python (src/counter/main.py:23: for i in range(self.state.count):): it passed its input on unchanged']);
      // Between the stub method's start and its completion line.
      const at = lines.indexOf(stubLines[0]!);
      expect(lines[at - 1]).toMatch(/^▸ tidy script/);
      expect(lines[at + 1]).toMatch(/^✓ tidy /);
      // The run's final status line says the run went through a stub.
      expect(lines.at(-1)).toMatch(/^⚠ completed with 1 stub reached: tidy \(src\/counter\/main\.py:23\) · in /);
      expect(result.stubsReached).toEqual([{ methodId: 'tidy', methodName: 'tidy', file: 'src/counter/main.py', line: 23, python: flow.methods[1]!.body.type === 'script' ? flow.methods[1]!.body.stub!.python : '' }]);
    } finally {
      ws.remove();
    }
  });
});
