import { existsSync, linkSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RuntimeEvent } from '../../shared/events';
import { FlowDocumentSchema } from '../../shared/model/flow';
import { createRuntime } from '../../runtime/runtime';
import { ofType, scripted, tempWorkspace, traceProblems } from '../support/crewHarness';

/** Forks of a flow whose earlier methods include a router fed by human feedback and parallel starts. */
let ws: ReturnType<typeof tempWorkspace> | undefined;
afterEach(() => {
  ws?.remove();
  ws = undefined;
});

const doc = FlowDocumentSchema.parse({
  kind: 'flow',
  version: 1,
  id: 'review',
  name: 'Review',
  state: { initial: { topic: 'numbers', status: 'draft' } },
  methods: [
    { id: 'draft', name: 'draft', trigger: { start: true }, body: { type: 'llm', prompt: 'Draft about {state.topic}.', llm: scripted({ default: 'A draft.' }) } },
    { id: 'side', name: 'side', trigger: { start: true }, body: { type: 'set_state', set: { side: 'done' } } },
    { id: 'review', name: 'review', trigger: { listen: 'draft' }, routes: ['approve', 'revise'], body: { type: 'human_feedback', message: 'Ready?', outcomes: ['approve', 'revise'], defaultOutcome: 'approve' } },
    { id: 'publish', name: 'publish', trigger: { listen: { route: 'approve' } }, body: { type: 'set_state', set: { status: 'published' } } },
    { id: 'rewrite', name: 'rewrite', trigger: { listen: { route: 'revise' } }, body: { type: 'script', code: 'state.status = "rewritten about " + state.topic; return state.status;' } },
  ],
});

describe('flow fork', () => {
  it('replays a router fed by human feedback (its route too) and a parallel start, asks nobody, and runs the rest with the edited state', async () => {
    ws = tempWorkspace('crewdeck-flowfork-');
    const runtime = createRuntime({ workspace: ws.dir, store: ws.store });
    const paused = await runtime.runFlow(doc);
    expect(paused.status).toBe('paused');
    const done = await runtime.resume(paused.runId, { feedback: 'revise' });
    expect(done.status).toBe('completed');

    const events: RuntimeEvent[] = [];
    const fork = await runtime.replayFlow(paused.runId, 'rewrite', { state: { topic: 'letters' }, onEvent: (e) => events.push(e) });
    expect(fork.status).toBe('completed');
    expect(fork.state).toMatchObject({ topic: 'letters', status: 'rewritten about letters', side: 'done', review_feedback: 'revise' });
    // Nobody was asked and no model called: draft, side and review came from the recording.
    expect(ofType(events, 'human.requested')).toEqual([]);
    expect(ofType(events, 'llm.started')).toEqual([]);
    expect(ofType(events, 'flow.route')).toMatchObject([{ methodId: 'review', route: 'revise' }]);
    const completed = ofType(events, 'flow.method.completed');
    expect(completed.filter((e) => e.restoredFrom === paused.runId).map((e) => e.methodId).sort()).toEqual(['draft', 'review', 'side']);
    expect(completed.find((e) => e.methodId === 'rewrite')!.restoredFrom).toBeUndefined();
    expect(events[0]).toMatchObject({ type: 'run.started', replayOf: { runId: paused.runId, fromMethodId: 'rewrite', edits: { topic: 'letters' } } });
    expect(traceProblems(events)).toEqual([]);

    await expect(runtime.replayFlow(paused.runId, 'publish')).rejects.toThrow('method "publish" never started in run');
    // A flow run is not replayed as a crew: the error names the flag to use.
    await expect(runtime.replay(paused.runId, 'draft')).rejects.toThrow('is a flow run; replay a flow from a method with --from-method');
  });

  it('writes the outputFile of a replayed method again, with its recorded output, through the protected-file check', async () => {
    ws = tempWorkspace('crewdeck-flowfork-');
    const written = FlowDocumentSchema.parse({
      kind: 'flow',
      version: 1,
      id: 'notes',
      name: 'Notes',
      state: { initial: { topic: 'owls' } },
      methods: [
        { id: 'research', name: 'research', trigger: { start: true }, outputFile: 'out/{state.topic}-facts.md', body: { type: 'llm', prompt: 'Facts about {state.topic}.', llm: scripted({ default: 'Owls hunt at night.' }) } },
        { id: 'draft', name: 'draft', trigger: { listen: 'research' }, outputFile: 'out/draft.md', body: { type: 'llm', prompt: 'Draft: {input}', llm: scripted({ default: 'A draft.' }) } },
      ],
    });
    const runtime = createRuntime({ workspace: ws.dir, store: ws.store });
    const first = await runtime.runFlow(written);
    expect(first.status).toBe('completed');
    const facts = join(ws.dir, 'out/owls-facts.md');
    expect(readFileSync(facts, 'utf8')).toBe('Owls hunt at night.');

    // The files are gone (or changed) since; the fork's output files reflect the fork.
    rmSync(join(ws.dir, 'out'), { recursive: true });
    const events: RuntimeEvent[] = [];
    const fork = await runtime.replayFlow(first.runId, 'draft', { onEvent: (e) => events.push(e) });
    expect(fork.status).toBe('completed');
    expect(ofType(events, 'flow.method.completed').find((e) => e.methodId === 'research')!.restoredFrom).toBe(first.runId);
    expect(ofType(events, 'llm.started')).toHaveLength(1); // the draft's call only
    expect(readFileSync(facts, 'utf8')).toBe('Owls hunt at night.');
    expect(readFileSync(join(ws.dir, 'out/draft.md'), 'utf8')).toBe('A draft.');

    // A replayed write goes through the same check as a run's: a file with a second name is refused.
    linkSync(facts, join(ws.dir, 'other-name.md'));
    const refused: RuntimeEvent[] = [];
    const blocked = await runtime.replayFlow(first.runId, 'draft', { onEvent: (e) => refused.push(e) });
    expect(blocked.status).toBe('failed');
    expect(blocked.error?.message).toContain('refused: "out/owls-facts.md" has 2 hard links');
    expect(ofType(refused, 'flow.method.failed')).toMatchObject([{ methodId: 'research' }]);
    expect(ofType(refused, 'llm.started')).toEqual([]);
    expect(traceProblems(refused)).toEqual([]);
    expect(existsSync(join(ws.dir, 'out/draft.md'))).toBe(true);
  });
});
