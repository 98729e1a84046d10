import { dirname } from 'node:path';
import type { RuntimeEvent } from '../../shared/events';
import type { HostChannel, HostRequestParsed, HostResponse } from '../../shared/host-api';
import type { CrewDocument } from '../../shared/model/crew';
import { loadWorkspaceSettings } from '../document/loadDocument';
import { loadWorkspaceDocument } from '../document/workspaceDocument';
import type { HumanChannel } from '../human/humanChannel';
import { ModelResolver } from '../llm/resolveModel';
import { WorkspaceTrust } from '../trust/workspaceTrust';
import type { Runtime } from '../runtime';
import { newTestId, testCrew } from '../testing/testCrew';
import { TestStore } from '../testing/testStore';
import { newTrainingId, train } from '../training/train';
import { SuggestionVersionNotFound, VersionConflict } from '../training/trainingErrors';
import { TrainingStore } from '../training/trainingStore';
import { diffSuggestions } from '../training/versionDiff';
import { HostBadInput, HostConflict, HostNotFound } from './hostErrors';
import { BackgroundRuns, hostRuntime, pushEvent, runMemory, type HostRunOptions } from './backgroundRuns';

type Channel = Extract<HostChannel, `training.${string}` | `tests.${string}`>;
type Req<C extends Channel> = HostRequestParsed<C>;
type Res<C extends Channel> = HostResponse<C>;

/**
 * The training and test channels of the host API. A training or a test runs in the background with its
 * own runtime; its runs' events are pushed like any run's, and its reviews wait in HostHuman under
 * the run that asks (so `human.pending` / `human.answer` serve them as any run's).
 */
export class HostTraining {
  private readonly training: TrainingStore;
  private readonly tests: TestStore;
  private readonly active = new BackgroundRuns();

  constructor(private readonly options: HostRunOptions) {
    this.training = TrainingStore.open(options.workspace);
    this.tests = TestStore.open(options.workspace);
  }

  // --- sessions ---------------------------------------------------------------------------------

  async startTraining({ path, iterations, evalModel, inputs }: Req<'training.start'>): Promise<Res<'training.start'>> {
    const { doc, file } = this.crewAt(path);
    const trainingId = newTrainingId(this.options.now());
    const settings = loadWorkspaceSettings(this.options.workspace);
    const runId = await this.launch(trainingId, async (runtime, signal, onEvent, onSessionEvent) => {
      await train({
        doc,
        iterations,
        runtime,
        store: this.training,
        models: this.evaluatorModels(file),
        evalModel,
        newVersions: settings?.training?.newVersions ?? 'active',
        inputs,
        documentPath: file,
        storedPath: path,
        signal,
        onEvent,
        onSessionEvent,
        trainingId,
        now: this.options.now,
      });
    });
    return { trainingId, runId };
  }

  async startTest({ path, iterations, evalModel, inputs }: Req<'tests.start'>): Promise<Res<'tests.start'>> {
    const { doc, file } = this.crewAt(path);
    const testId = newTestId(this.options.now());
    const runId = await this.launch(testId, async (runtime, signal, onEvent, onSessionEvent) => {
      await testCrew({
        doc,
        iterations,
        runtime,
        store: this.tests,
        models: this.evaluatorModels(file),
        evalModel,
        inputs,
        documentPath: file,
        storedPath: path,
        signal,
        onEvent,
        onSessionEvent,
        testId,
        now: this.options.now,
      });
    });
    return { testId, runId };
  }

  cancel(id: string): boolean {
    return this.active.cancel(id);
  }

  async closeAll(): Promise<void> {
    await this.active.closeAll();
    this.training.close();
    this.tests.close();
  }

  // --- versions ---------------------------------------------------------------------------------

  sessions({ crewId }: Req<'training.sessions'>): Res<'training.sessions'> {
    return { sessions: this.training.sessions(crewId) };
  }

  versions({ crewId, role }: Req<'training.versions'>): Res<'training.versions'> {
    return { versions: this.training.versions(crewId, role) };
  }

  records({ crewId, role, trainingId, ids }: Req<'training.records'>): Res<'training.records'> {
    return { records: this.training.records({ crewId, role, trainingId, ids }) };
  }

  updateSuggestion({ crewId, role, version, index, text }: Req<'training.updateSuggestion'>): Res<'training.updateSuggestion'> {
    return this.change(crewId, () => {
      const current = this.training.version(crewId, role, version);
      if (index >= current.suggestions.length) {
        throw new HostBadInput(`index: version ${version} of "${role}" has ${current.suggestions.length} suggestion(s); index ${index} is out of range`);
      }
      const next = current.suggestions.map((s, i) => (i === index ? text : s));
      return this.training.editSuggestions(crewId, role, version, next);
    });
  }

  setSuggestions({ crewId, role, version, suggestions }: Req<'training.setSuggestions'>): Res<'training.setSuggestions'> {
    return this.change(crewId, () => this.training.editSuggestions(crewId, role, version, suggestions));
  }

  activate({ crewId, role, version }: Req<'training.activate'>): Res<'training.activate'> {
    return this.change(crewId, () => this.training.activate(crewId, role, version));
  }

  disable({ crewId, role, version }: Req<'training.disable'>): Res<'training.disable'> {
    return this.change(crewId, () => this.training.disable(crewId, role, version));
  }

  rollback({ crewId, role }: Req<'training.rollback'>): Res<'training.rollback'> {
    return this.change(crewId, () => this.training.rollback(crewId, role));
  }

  diff({ crewId, role, from, to }: Req<'training.diff'>): Res<'training.diff'> {
    return hostErrors(() => ({ diff: diffSuggestions(this.training.version(crewId, role, from), this.training.version(crewId, role, to)) }));
  }

  // --- tests ------------------------------------------------------------------------------------

  listTests({ crewId, limit }: Req<'tests.list'>): Res<'tests.list'> {
    return { tests: this.tests.sessions({ crewId, limit }) };
  }

  getTest({ testId }: Req<'tests.get'>): Res<'tests.get'> {
    const report = this.tests.report(testId);
    if (!report) throw new HostNotFound(`no test with id "${testId}" in this workspace`);
    return report;
  }

  // --- helpers ----------------------------------------------------------------------------------

  private change(crewId: string, apply: () => Res<'training.activate'>['version']): { version: Res<'training.activate'>['version'] } {
    const version = hostErrors(apply);
    this.options.push({ kind: 'training.changed', crewId });
    return { version };
  }

  private crewAt(path: string): { doc: CrewDocument; file: string } {
    const loaded = loadWorkspaceDocument(this.options.workspace, path);
    const file = loaded.file;
    if (loaded.kind !== 'crew') throw new HostBadInput(`path: ${path} is a flow; training and tests work on crews`);
    return { doc: loaded.doc, file };
  }

  private evaluatorModels(file: string): ModelResolver {
    const { workspace, env } = this.options;
    return new ModelResolver({ settings: loadWorkspaceSettings(workspace), env, baseDir: dirname(file), trust: new WorkspaceTrust(workspace) });
  }

  /**
   * Starts a session in the background with a runtime whose human asks under the run in progress.
   * Resolves with the first crew run's id once it has opened; rejects with what kept it from opening.
   * Every event is pushed as it comes, the session's own (`training.*`, `test.*`, the evaluator's
   * calls) included: the app follows a session's progress through those events, not separate notices.
   */
  private async launch(
    id: string,
    body: (runtime: Runtime, signal: AbortSignal, onEvent: (e: RuntimeEvent) => void, onSessionEvent: (e: RuntimeEvent) => void) => Promise<void>,
  ): Promise<string> {
    const memory = await runMemory(this.options);
    const { human, push } = this.options;
    let currentRun = '';
    const asker: HumanChannel = {
      reviewTask: (request, signal) => human.forRun(currentRun).reviewTask(request, signal),
      approveTool: (request, signal) => human.forRun(currentRun).approveTool(request, signal),
    };
    const runtime = hostRuntime(this.options, memory, { human: asker });
    return this.active.start<string>(
      id,
      (signal, open) => {
        const forward = (event: RuntimeEvent) => {
          if (event.type === 'run.started') push({ kind: 'runs.changed' });
          pushEvent(push, event);
          if (event.type === 'run.completed' || event.type === 'run.failed' || event.type === 'run.cancelled') push({ kind: 'runs.changed' });
        };
        const onEvent = (event: RuntimeEvent) => {
          if (event.type === 'run.started') {
            // The human is asked under the crew run that starts here: its human.requested events carry that id.
            currentRun = event.runId;
            open(event.runId);
          }
          forward(event);
        };
        return body(runtime, signal, onEvent, forward);
      },
      'the session ended without starting a run',
    );
  }
}

/** Version errors as host errors: a missing version is not_found, an impossible change a conflict. */
function hostErrors<T>(apply: () => T): T {
  try {
    return apply();
  } catch (error) {
    if (error instanceof SuggestionVersionNotFound) throw new HostNotFound(error.message);
    if (error instanceof VersionConflict) throw new HostConflict(error.message);
    throw error;
  }
}
