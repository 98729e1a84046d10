import { afterEach, describe, expect, it } from 'vitest';
import type { RuntimeEvent } from '../../shared/events';
import { FlowDocumentSchema } from '../../shared/model/flow';
import { Recording } from '../../runtime/offline/recording';
import { createRuntime } from '../../runtime/runtime';
import { ofType, scripted, tempWorkspace } from '../support/crewHarness';

let ws: ReturnType<typeof tempWorkspace>;
afterEach(() => ws?.remove());

/** Two parallel llm methods (the slow one recorded last) and an agent method with a tool after both. */
function flowDoc(replies: { fast: string; slow: string; agent: string }) {
  return FlowDocumentSchema.parse({
    kind: 'flow',
    version: 1,
    id: 'f',
    name: 'Offline flow',
    methods: [
      { id: 'fast', name: 'fast', trigger: { start: true }, body: { type: 'llm', prompt: 'fast', llm: scripted({ default: { content: replies.fast, delayMs: 5 } }, 'fast') } },
      { id: 'slow', name: 'slow', trigger: { start: true }, body: { type: 'llm', prompt: 'slow', llm: scripted({ default: { content: replies.slow, delayMs: 60 } }, 'slow') } },
      {
        id: 'sum',
        name: 'sum',
        trigger: { listen: { and: ['fast', 'slow'] } },
        body: {
          type: 'agent',
          prompt: 'Add up',
          agent: {
            role: 'Adder',
            goal: 'Add',
            tools: [{ tool: 'calculator' }],
            llm: scripted({ rules: [{ when: { lastRole: 'user' }, reply: { toolCalls: [{ name: 'calculator', arguments: { expression: '2+3' } }] } }, { when: { lastRole: 'tool' }, reply: replies.agent }] }, 'adder'),
          },
        },
      },
    ],
  });
}

describe('offline re-run of a flow', () => {
  it('answers each method from its own recorded calls, whatever order the branches run in; the scripts are not consulted', async () => {
    ws = tempWorkspace('crewdeck-flow-offline-');
    const recorded = await createRuntime({ workspace: ws.dir, store: ws.store }).runFlow(flowDoc({ fast: 'FAST', slow: 'SLOW', agent: 'Sum is 5.' }));
    expect(recorded.status).toBe('completed');
    const recording = Recording.fromEvents(recorded.runId, ws.store.events(recorded.runId));

    // The same flow with other scripted replies: offline, the recording answers, not the scripts.
    const events: RuntimeEvent[] = [];
    const offline = await createRuntime({ workspace: ws.dir, store: ws.store, offline: recording }).runFlow(flowDoc({ fast: 'other', slow: 'other', agent: 'other' }), { onEvent: (e) => events.push(e) });
    expect(offline.status).toBe('completed');
    expect(offline.output).toBe('Sum is 5.');
    const outputs = Object.fromEntries(ofType(events, 'flow.method.completed').map((e) => [e.methodId, e.output]));
    expect(outputs).toEqual({ fast: 'FAST', slow: 'SLOW', sum: 'Sum is 5.' });
    expect(ofType(events, 'run.started')[0]!.offlineFrom).toBe(recorded.runId);
    // The calculator ran for real.
    expect(ofType(events, 'tool.completed').map((e) => e.result)).toEqual(['5']);

    // A method the recording does not hold fails the run with the message.
    const extra = flowDoc({ fast: 'x', slow: 'x', agent: 'x' });
    extra.methods.push({ ...extra.methods[0], id: 'more', name: 'more', trigger: { listen: 'sum' } } as (typeof extra.methods)[number]);
    const more = await createRuntime({ workspace: ws.dir, store: ws.store, offline: Recording.fromEvents(recorded.runId, ws.store.events(recorded.runId)) }).runFlow(extra);
    expect(more.status).toBe('failed');
    expect(more.error?.message).toContain('no recorded reply for the flow_llm call in more (call 1): the document asks for more than the recording holds');
  });
});
