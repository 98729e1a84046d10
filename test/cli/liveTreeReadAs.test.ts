import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { EventInput, RuntimeEvent } from '../../shared/events';
import { emptyUsage } from '../../shared/usage';
import { LiveTree } from '../../runtime/cli/liveTree';
import { createStyle } from '../../runtime/cli/style';

function render(inputs: [EventInput, string, string?][]): string[] {
  let out = '';
  const stream = new Writable({
    write(chunk, _encoding, done) {
      out += String(chunk);
      done();
    },
  });
  const tree = new LiveTree({ out: stream, style: createStyle(false), spinner: false });
  inputs.forEach(([input, spanId, parentSpanId], i) => tree.handle({ ...input, runId: 'r', seq: i + 1, ts: i, spanId, parentSpanId } as RuntimeEvent));
  return out.trimEnd().split('\n');
}

const usage = emptyUsage();

describe('the CLI live tree: lenient readings of model replies', () => {
  it('marks a tool call the model wrote as text "read from text", and only that call', () => {
    const lines = render([
      [{ type: 'task.started', taskId: 'sum', index: 0, agentRole: 'Solver', description: 'd', expectedOutput: 'e', async: false, context: '' }, 's1'],
      [{ type: 'agent.started', agentId: 'solver', role: 'Solver', taskId: 'sum', tools: ['calculator'], model: 'local', mode: 'native' }, 's2', 's1'],
      [{ type: 'tool.started', tool: 'calculator', args: { expression: '6*7' }, agentRole: 'Solver', callId: 'c1', readAs: ['text-tool-call'] }, 's3', 's2'],
      [{ type: 'tool.completed', tool: 'calculator', result: '42', durationMs: 3, resultAsAnswer: false }, 's3', 's2'],
      [{ type: 'tool.started', tool: 'calculator', args: { expression: '1+1' }, agentRole: 'Solver', callId: 'c2' }, 's4', 's2'],
      [{ type: 'tool.completed', tool: 'calculator', result: '2', durationMs: 1, resultAsAnswer: false }, 's4', 's2'],
      [{ type: 'agent.completed', role: 'Solver', output: '42', iterations: 2, tokenUsage: usage, durationMs: 9 }, 's2', 's1'],
    ]);
    const tools = lines.filter((l) => l.includes('⚒'));
    expect(tools).toHaveLength(2);
    expect(tools[0]).toMatch(/⚒ calculator → 42 .* \(read from text\)$/);
    expect(tools[1]).not.toContain('read');
    expect(lines.find((l) => l.includes('Solver answered'))).not.toContain('read as');
  });

  it('notes a cleaned tool name, a fenced final answer and JSON read from a fence on their lines', () => {
    const lines = render([
      [{ type: 'task.started', taskId: 'plan', index: 0, agentRole: 'Lead', description: 'd', expectedOutput: 'e', async: false, context: '' }, 's1'],
      [{ type: 'agent.started', agentId: 'lead', role: 'Lead', taskId: 'plan', tools: ['delegate_work'], model: 'm', mode: 'react' }, 's2', 's1'],
      [{ type: 'tool.started', tool: 'delegate_work', args: {}, agentRole: 'Lead', callId: 'c1', readAs: ['tool-name-cleaned', 'crewai-tool-name'] }, 's3', 's2'],
      [{ type: 'tool.failed', tool: 'delegate_work', error: 'no such coworker', durationMs: 2 }, 's3', 's2'],
      [{ type: 'agent.completed', role: 'Lead', output: '{"a":1}', iterations: 2, tokenUsage: usage, durationMs: 9, readAs: ['fenced-final-answer'] }, 's2', 's1'],
      [{ type: 'task.completed', taskId: 'plan', agentRole: 'Lead', raw: '{"a":1}', json: { a: 1 }, tokenUsage: usage, durationMs: 10, readAs: ['fenced-json'] }, 's1'],
    ]);
    expect(lines.find((l) => l.includes('✗ delegate_work'))).toMatch(/\(read as tool-name-cleaned, crewai-tool-name\)$/);
    expect(lines.find((l) => l.includes('Lead answered'))).toMatch(/\(read as fenced-final-answer\)$/);
    expect(lines.find((l) => l.includes('✓ task plan'))).toMatch(/\(read as fenced-json\)$/);
  });
});
