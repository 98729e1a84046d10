import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { EventInput, RuntimeEvent } from '../../shared/events';
import { LiveTree } from '../../runtime/cli/liveTree';
import { createStyle } from '../../runtime/cli/style';

function render(inputs: [EventInput, string, string?][]): string {
  let out = '';
  const stream = new Writable({
    write(chunk, _encoding, done) {
      out += String(chunk);
      done();
    },
  });
  const tree = new LiveTree({ out: stream, style: createStyle(false), spinner: false });
  inputs.forEach(([input, spanId, parentSpanId], i) => tree.handle({ ...input, runId: 'r', seq: i + 1, ts: i, spanId, parentSpanId } as RuntimeEvent));
  return out;
}

describe('the CLI live tree: memory writes', () => {
  it('prints one line per write: committed counts, discarded with its reason, or the failure', () => {
    const out = render([
      [{ type: 'task.started', taskId: 'brief', index: 0, agentRole: 'Writer', description: 'd', expectedOutput: 'e', async: false, context: '' }, 's2', 's1'],
      [{ type: 'memory.write.staged', taskId: 'brief', agentRole: 'Writer', attempt: 1, policy: 'after-guardrail', scope: '/crew/x', saved: [], extract: true }, 's3', 's2'],
      [{ type: 'memory.write.discarded', taskId: 'brief', attempt: 1, reason: 'the guardrail rejected the output', dropped: 2 }, 's3', 's2'],
      [{ type: 'memory.write.staged', taskId: 'brief', agentRole: 'Writer', attempt: 2, policy: 'after-guardrail', scope: '/crew/x', saved: [], extract: true }, 's4', 's2'],
      [{ type: 'memory.write.decision', taskId: 'brief', action: 'insert', content: 'c', similar: [], reason: 'new', decidedBy: 'rule' }, 's4', 's2'],
      [{ type: 'memory.write.committed', taskId: 'brief', attempt: 2, inserted: 2, updated: 1, deleted: 0, skipped: 1, recordIds: [] }, 's4', 's2'],
      [{ type: 'memory.write.staged', taskId: 'brief', agentRole: 'Writer', attempt: 3, policy: 'immediate', scope: '/crew/x', saved: [], extract: true }, 's5', 's2'],
      [{ type: 'memory.write.failed', taskId: 'brief', attempt: 3, error: 'embedder unreachable' }, 's5', 's2'],
    ]);
    const lines = out.trimEnd().split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[1]).toBe('  ◇ memory discarded (task brief, attempt 1): 2 staged — the guardrail rejected the output');
    expect(lines[2]).toBe('  ◆ memory (task brief): 2 new · 1 updated · 1 duplicate skipped');
    expect(lines[3]).toBe('  ✗ memory write failed (task brief): embedder unreachable');
  });
});
