import { afterEach, describe, expect, it } from 'vitest';
import { existsSync, writeFileSync } from 'node:fs';
import { FlowDocumentSchema } from '../../shared/model/flow';
import { join } from 'node:path';
import { agentPrompts, ofType, runCrew, tempWorkspace } from '../support/crewHarness';
import { ScriptedHuman } from '../support/scriptedHuman';
import { createRuntime } from '../../runtime/runtime';
import { ModelResolver } from '../../runtime/llm/resolveModel';
import { TrainingStore } from '../../runtime/training/trainingStore';
import { train } from '../../runtime/training/train';
import { EvaluatorReplyInvalid } from '../../runtime/training/trainingErrors';
import type { RuntimeEvent } from '../../shared/events';
import { evaluation, writerEditorCrew } from './trainingFixtures';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

function setup() {
  const ws = tempWorkspace('crewdeck-train-');
  const store = TrainingStore.open(ws.dir);
  cleanups.push(() => {
    store.close();
    ws.remove();
  });
  return { ws, store };
}

/**
 * Feedback for one training iteration of the writer/editor crew: the Writer's first answer gets
 * feedback, its revision is accepted; the Editor's answer is accepted as is.
 */
const iterationFeedback = (feedback: string) => [feedback, '', ''];

async function runTraining(ws: ReturnType<typeof tempWorkspace>, store: TrainingStore, doc: ReturnType<typeof writerEditorCrew>, feedback: string[], iterations = 2) {
  const human = new ScriptedHuman(feedback);
  const events: RuntimeEvent[] = [];
  const runtime = createRuntime({ workspace: ws.dir, store: ws.store, human });
  const result = await train({ doc, iterations, runtime, store, models: new ModelResolver({ baseDir: ws.dir }), onEvent: (e) => events.push(e) });
  return { result, events, human };
}

describe('training', () => {
  it('records feedback per iteration, stores a version per role with feedback, and the next ordinary run applies it to that role only', async () => {
    const { ws, store } = setup();
    const doc = writerEditorCrew();
    const { result, events, human } = await runTraining(ws, store, doc, [...iterationFeedback('Start with a summary line.'), ...iterationFeedback('Use bullet points.')]);

    expect(result.status).toBe('completed');
    expect(result.runIds).toHaveLength(2);
    // Every task was reviewed (humanInput on), though the document does not ask for it.
    expect(human.reviews.map((r) => r.taskId)).toEqual(['draft', 'draft', 'polish', 'draft', 'draft', 'polish']);
    // Training runs are marked as such.
    const starts = ofType(events, 'run.started');
    expect(starts.map((e) => e.purpose)).toEqual([
      { kind: 'training', sessionId: result.trainingId, iteration: 1, iterations: 2 },
      { kind: 'training', sessionId: result.trainingId, iteration: 2, iterations: 2 },
    ]);

    const records = store.records({ crewId: 'writing-crew' });
    expect(records.map((r) => [r.iteration, r.taskId, r.role, r.initialOutput, r.feedback, r.improvedOutput])).toEqual([
      [1, 'draft', 'Writer', 'Writer first answer', 'Start with a summary line.', 'Writer improved answer'],
      [2, 'draft', 'Writer', 'Writer first answer', 'Use bullet points.', 'Writer improved answer'],
    ]);
    expect(records.map((r) => r.runId)).toEqual(result.runIds);

    // Only the Writer got feedback, so only the Writer gets a version.
    expect(result.versions.map((v) => [v.role, v.version, v.status])).toEqual([['Writer', 1, 'active']]);
    expect(result.rolesWithoutFeedback).toEqual(['Editor']);
    const v1 = store.version('writing-crew', 'Writer', 1);
    expect(v1.suggestions).toEqual(['Start with a one-line summary.', 'Use bullet points for the key facts.']);
    expect(v1.recordIds).toEqual(records.map((r) => r.id));
    expect(v1.runIds).toEqual(result.runIds);
    expect(v1.quality).toBe(7);

    // The evaluator saw the records.
    const session = store.session(result.trainingId)!;
    expect(session.status).toBe('completed');

    // The next ordinary run.
    const next = await runCrew(doc, { workspace: ws });
    expect(next.result.status).toBe('completed');
    const [writerPrompt] = agentPrompts(next.events, 'Writer');
    const [editorPrompt] = agentPrompts(next.events, 'Editor');
    expect(writerPrompt).toContain('You MUST follow these instructions');
    expect(writerPrompt).toContain('- Start with a one-line summary.\n- Use bullet points for the key facts.');
    expect(editorPrompt).not.toContain('You MUST follow these instructions');
    expect(editorPrompt).not.toContain('one-line summary');
    const started = ofType(next.events, 'agent.started');
    expect(started.find((e) => e.role === 'Writer')?.suggestions).toEqual({ version: 1, count: 2 });
    expect(started.find((e) => e.role === 'Editor')?.suggestions).toBeUndefined();
    // An ordinary run is not marked as training.
    expect(ofType(next.events, 'run.started')[0]!.purpose).toBeUndefined();
  });

  it('rolling back and disabling take the suggestions out of the next run', async () => {
    const { ws, store } = setup();
    // Each training resolves its evaluator afresh: the two documents differ only in what it answers.
    const doc = writerEditorCrew([evaluation(['Version one rule.'])]);
    await runTraining(ws, store, doc, [...iterationFeedback('first'), ...iterationFeedback('second')]);
    await runTraining(ws, store, writerEditorCrew([evaluation(['Version two rule.'])]), [...iterationFeedback('third'), ...iterationFeedback('fourth')]);
    expect(store.versions('writing-crew', 'Writer').map((v) => [v.version, v.status])).toEqual([
      [2, 'active'],
      [1, 'disabled'],
    ]);
    const prompt = async () => {
      const run = await runCrew(doc, { workspace: ws });
      return { prompt: agentPrompts(run.events, 'Writer')[0], started: ofType(run.events, 'agent.started').find((e) => e.role === 'Writer')! };
    };
    let seen = await prompt();
    expect(seen.prompt).toContain('Version two rule.');
    expect(seen.started.suggestions).toEqual({ version: 2, count: 1 });

    store.rollback('writing-crew', 'Writer');
    seen = await prompt();
    expect(seen.prompt).not.toContain('Version two rule.');
    expect(seen.prompt).toContain('Version one rule.');
    expect(seen.started.suggestions).toEqual({ version: 1, count: 1 });

    store.disable('writing-crew', 'Writer', 1);
    seen = await prompt();
    expect(seen.prompt).not.toContain('Version one rule.');
    expect(seen.prompt).not.toContain('You MUST follow these instructions');
    expect(seen.started.suggestions).toBeUndefined();
  });

  it("a flow's crew body applies the crew's active suggestions too", async () => {
    const { ws, store } = setup();
    const doc = writerEditorCrew();
    await runTraining(ws, store, doc, [...iterationFeedback('a'), ...iterationFeedback('b')]);
    writeFileSync(join(ws.dir, 'writing.crew.json'), JSON.stringify(doc));
    const flow = FlowDocumentSchema.parse({
      kind: 'flow',
      version: 1,
      id: 'wrap',
      name: 'Wrap',
      methods: [{ id: 'write', name: 'write', trigger: { start: true }, body: { type: 'crew', file: 'writing.crew.json' } }],
    });
    const events: RuntimeEvent[] = [];
    const result = await createRuntime({ workspace: ws.dir, store: ws.store }).runFlow(flow, { onEvent: (e) => events.push(e) });
    expect(result.status).toBe('completed');
    expect(agentPrompts(events, 'Writer')[0]).toContain('- Start with a one-line summary.');
    expect(ofType(events, 'agent.started').find((e) => e.role === 'Writer')?.suggestions).toEqual({ version: 1, count: 2 });
    expect(agentPrompts(events, 'Editor')[0]).not.toContain('You MUST follow these instructions');
  });

  it('the workspace setting newVersions: draft keeps a new version out of runs until it is activated', async () => {
    const { ws, store } = setup();
    const doc = writerEditorCrew();
    const human = new ScriptedHuman([...iterationFeedback('x')]);
    const runtime = createRuntime({ workspace: ws.dir, store: ws.store, human });
    const result = await train({ doc, iterations: 1, runtime, store, models: new ModelResolver({ baseDir: ws.dir }), newVersions: 'draft' });
    expect(result.versions[0]!.status).toBe('draft');
    let run = await runCrew(doc, { workspace: ws });
    expect(agentPrompts(run.events, 'Writer')[0]).not.toContain('one-line summary');
    store.activate('writing-crew', 'Writer', 1);
    run = await runCrew(doc, { workspace: ws });
    expect(agentPrompts(run.events, 'Writer')[0]).toContain('one-line summary');
  });

  it('an evaluator reply that stays invalid after one repair fails the training with a typed error and stores no version', async () => {
    const { ws, store } = setup();
    const doc = writerEditorCrew(['this is not JSON', '{"suggestions": [], "quality": 11}']);
    const promise = runTraining(ws, store, doc, [...iterationFeedback('a'), ...iterationFeedback('b')]);
    await expect(promise).rejects.toBeInstanceOf(EvaluatorReplyInvalid);
    await expect(promise).rejects.toThrow(/role "Writer".*after one repair attempt/);
    expect(store.versions('writing-crew')).toEqual([]);
    const [session] = store.sessions('writing-crew');
    expect(session!.status).toBe('failed');
    expect(session!.error).toMatch(/evaluator/);
    // The records behind it are kept.
    expect(store.records({ crewId: 'writing-crew' })).toHaveLength(2);
  });

  it('a training run that fails stops the training and adds no version', async () => {
    const { ws, store } = setup();
    const doc = writerEditorCrew();
    // The human runs out of answers in the second review: the run fails.
    const human = new ScriptedHuman(['only feedback']);
    const runtime = createRuntime({ workspace: ws.dir, store: ws.store, human });
    const result = await train({ doc, iterations: 2, runtime, store, models: new ModelResolver({ baseDir: ws.dir }) });
    expect(result.status).toBe('failed');
    expect(result.runIds).toHaveLength(1);
    expect(result.error?.message).toMatch(/training run 1 of 2/);
    expect(store.versions('writing-crew')).toEqual([]);
    expect(existsSync(join(ws.dir, '.crewdeck', 'crewdeck.db'))).toBe(true);
  });
});
