import type { Runtime, RuntimeOptions } from './runtimeApi';
import { runPreparation } from './prepare/runPreparation';
import { openSessionRun, replayCrew, runCrew } from './verbs/crewRuns';
import { replayFlow, runFlow } from './verbs/flowRuns';
import { cancelStopped, resume } from './verbs/stoppedRuns';

export type { ResumeOptions, RunCrewOptions, Runtime, RuntimeOptions } from './runtimeApi';

/**
 * The runtime of one workspace. Its options are resolved and its strategy (online, or offline from
 * `options.offline`) chosen once, here; every verb prepares its run from them (runtime/prepare/) and
 * runs it (runtime/verbs/).
 */
export function createRuntime(options: RuntimeOptions): Runtime {
  const prep = runPreparation(options);
  return {
    runFlow: (doc, run = {}) => runFlow(prep, doc, run),
    replayFlow: (runId, fromMethodId, run = {}) => replayFlow(prep, runId, fromMethodId, run),
    cancelStopped: (runId, reason) => cancelStopped(prep, runId, reason),
    resume: (runId, run = {}) => resume(prep, runId, run),
    openSessionRun: (doc, run) => openSessionRun(prep, doc, run),
    runCrew: (doc, run = {}) => runCrew(prep, doc, run),
    replay: (runId, fromTaskId, run = {}) => replayCrew(prep, runId, fromTaskId, run),
  };
}
