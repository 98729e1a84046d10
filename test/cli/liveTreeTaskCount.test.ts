import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { RuntimeEvent } from '../../shared/events';
import { LiveTree } from '../../runtime/cli/liveTree';
import { createStyle } from '../../runtime/cli/style';

/** The live tree counts a crew's tasks against the crew's task count, never against a flow's methods. */
function lines(events: Partial<RuntimeEvent>[]): string[] {
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
  let seq = 0;
  for (const e of events) tree.handle({ runId: 'run_1', ts: 0, seq: (seq += 1), spanId: `s${seq}`, ...e } as RuntimeEvent);
  return out.split('\n').filter((l) => l.includes('▸ task'));
}

const started = (process: 'sequential' | 'flow', steps: number) =>
  ({ type: 'run.started', documentId: 'd', documentName: 'D', process, inputs: {}, stepIds: Array.from({ length: steps }, (_, i) => `m${i}`) }) as Partial<RuntimeEvent>;
const task = { type: 'task.started', taskId: 'draft', index: 0, agentRole: 'Writer', description: 'Write', expectedOutput: 'Text', async: false, context: '' } as Partial<RuntimeEvent>;

describe('the live tree task counter', () => {
  it('a crew: task 1/3', () => {
    expect(lines([started('sequential', 3), task])).toEqual(['▸ task 1/3 draft — Writer']);
  });

  it('a crew inside a flow of 8 methods: task 1, not task 1/8', () => {
    expect(lines([started('flow', 8), task])).toEqual(['▸ task 1 draft — Writer']);
  });
});
