import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RuntimeEvent } from '../../shared/events';
import { FlowDocumentSchema, type FlowDocumentInput } from '../../shared/model/flow';
import { createRuntime } from '../../runtime/runtime';
import { openWorkspaceMemory } from '../../runtime/memory/workspaceMemory';
import { agentPrompts, ofType, scripted, tempWorkspace, traceProblems } from '../support/crewHarness';

let ws: ReturnType<typeof tempWorkspace>;
afterEach(() => ws?.remove());

const flow = (input: Partial<FlowDocumentInput>) => FlowDocumentSchema.parse({ kind: 'flow', version: 1, id: 'f', name: 'Bodies', ...input });

async function run(doc: ReturnType<typeof flow>) {
  const events: RuntimeEvent[] = [];
  const result = await createRuntime({ workspace: ws.dir, store: ws.store }).runFlow(doc, { onEvent: (e) => events.push(e) });
  expect(traceProblems(events)).toEqual([]);
  return { result, events };
}

describe('flow bodies', () => {
  it('a crew body runs the crew file with inputs from the state; its tasks nest under the method', async () => {
    ws = tempWorkspace('crewdeck-flow-crew-');
    writeFileSync(
      join(ws.dir, 'writer.crew.json'),
      JSON.stringify({
        kind: 'crew',
        version: 1,
        id: 'writer',
        name: 'Writer',
        inputs: [{ name: 'topic' }],
        agents: [{ id: 'w', role: 'Writer', goal: 'Write about {topic}', llm: { provider: 'scripted', model: 'w', script: { default: 'A short piece.' } } }],
        tasks: [{ id: 'write', description: 'Write about {topic}', expectedOutput: 'A paragraph', agentId: 'w' }],
      }),
    );
    const { result, events } = await run(
      flow({
        state: { initial: { topic: 'tidal power' } },
        methods: [{ id: 'w', name: 'write', trigger: { start: true }, body: { type: 'crew', file: 'writer.crew.json', inputs: { topic: '{state.topic}' } } }],
      }),
    );
    expect(result).toMatchObject({ status: 'completed', output: 'A short piece.' });
    expect(agentPrompts(events, 'Writer')[0]).toContain('Write about tidal power');
    const method = ofType(events, 'flow.method.started')[0];
    expect(ofType(events, 'task.started')[0]!.parentSpanId).toBe(method!.spanId);
  });

  it('a crew body refuses a crew file that is a symbolic link leading outside the workspace', async () => {
    ws = tempWorkspace('crewdeck-flow-crewlink-');
    const outside = mkdtempSync(join(tmpdir(), 'crewdeck-outside-'));
    try {
      writeFileSync(
        join(outside, 'secret.crew.json'),
        JSON.stringify({
          kind: 'crew',
          version: 1,
          id: 'secret',
          name: 'Secret',
          agents: [{ id: 'w', role: 'Writer', goal: 'Write', llm: { provider: 'scripted', model: 'w', script: { default: 'read from outside' } } }],
          tasks: [{ id: 'write', description: 'Write', expectedOutput: 'A paragraph', agentId: 'w' }],
        }),
      );
      symlinkSync(join(outside, 'secret.crew.json'), join(ws.dir, 'linked.crew.json'));
      const { result } = await run(flow({ methods: [{ id: 'w', name: 'write', trigger: { start: true }, body: { type: 'crew', file: 'linked.crew.json' } }] }));
      expect(result.status).toBe('failed');
      expect(result.output).not.toContain('read from outside');
      // The one document-path check (runtime/document/workspaceDocument.ts): a workspace-relative name, no absolute path.
      expect(result.error?.message).toContain('linked.crew.json is not a document of this workspace: it leads outside the workspace');
      expect(result.error?.message).not.toContain(outside);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it('an agent body runs a standalone agent on the prompt; an llm body checks its output schema', async () => {
    ws = tempWorkspace('crewdeck-flow-agent-');
    const { result, events } = await run(
      flow({
        state: { initial: { city: 'Lyon' } },
        methods: [
          {
            id: 'plan',
            name: 'plan',
            trigger: { start: true },
            body: { type: 'agent', agent: { role: 'Planner', goal: 'Plan trips', llm: scripted({ default: 'Day 1: old town.' }) }, prompt: 'Plan a day in {state.city}' },
          },
          {
            id: 'score',
            name: 'score',
            trigger: { listen: 'plan' },
            body: { type: 'llm', prompt: 'Score this plan: {input}', llm: scripted({ default: '{"score": 8}' }), outputSchema: { type: 'object', required: ['score'], properties: { score: { type: 'number' } } } },
          },
        ],
      }),
    );
    expect(result.status).toBe('completed');
    expect(agentPrompts(events, 'Planner')[0]).toContain('Plan a day in Lyon');
    expect(ofType(events, 'llm.started').find((e) => e.purpose === 'flow_llm')!.messages[0]!.content).toContain('Score this plan: Day 1: old town.');
    expect(result.output).toBe('{"score": 8}');

    const bad = await run(flow({ methods: [{ id: 's', name: 'score', trigger: { start: true }, body: { type: 'llm', prompt: 'Score', llm: scripted({ default: 'eight' }), outputSchema: { type: 'object' } } }] }));
    expect(bad.result.status).toBe('failed');
    expect(bad.result.error?.message).toMatch(/score: the model's reply does not match the output schema/);
  });

  it('a template naming a missing state field fails the method and names the field', async () => {
    ws = tempWorkspace('crewdeck-flow-tpl-');
    const { result } = await run(flow({ state: { initial: { a: 1 } }, methods: [{ id: 's', name: 'greet', trigger: { start: true }, body: { type: 'set_state', set: { msg: 'Hi {state.name}' } } }] }));
    expect(result.error?.message).toBe('greet.set.msg: {state.name} has no value (state has: a)');
  });

  it('an agent step with memory recalls up to 20 memories of its own scope (a crew task recalls 5)', async () => {
    ws = tempWorkspace('crewdeck-flow-agentmem-');
    const memory = await openWorkspaceMemory(ws.dir, { settings: undefined, env: {} });
    await memory.add(
      Array.from({ length: 25 }, (_, i) => ({ content: `Lyon travel tip number ${i}: visit the old town early`, scope: '/flow/f/agent/Planner', source: { kind: 'manual' as const } })),
    );
    const events: RuntimeEvent[] = [];
    const doc = flow({
      methods: [
        {
          id: 'plan',
          name: 'plan',
          trigger: { start: true },
          body: { type: 'agent', agent: { role: 'Planner', goal: 'Plan trips', memory: true, llm: scripted({ default: 'Day 1: old town.' }) }, prompt: 'Plan a day in Lyon, visit the old town' },
        },
      ],
    });
    const result = await createRuntime({ workspace: ws.dir, store: ws.store, memory }).runFlow(doc, { onEvent: (e) => events.push(e) });
    expect(result.status).toBe('completed');
    const recall = ofType(events, 'memory.recall')[0];
    expect(recall!.scope).toBe('/flow/f/agent/Planner');
    expect(recall!.records).toHaveLength(20);
    memory.close();
  });
});

