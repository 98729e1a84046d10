import { relative, sep } from 'node:path';
import { errorMessage } from '../../errors';
import { MAX_TRAINING_ITERATIONS, train, type TrainResult } from '../../training/train';
import { EvaluatorReplyInvalid } from '../../training/trainingErrors';
import { TrainingStore } from '../../training/trainingStore';
import { formatUsageLine } from '../format';
import { withTerminalRuntime } from '../sessionRuntime';
import type { Style } from '../style';
import { EXIT } from '../usage';
import { loadCrewFile, parseCrewSessionArgs } from './crewSessionArgs';

/**
 * `crewdeck train <file> -n N [--eval-model PROFILE] [--json]`: N runs with every task reviewed at the
 * terminal, then one suggestion version per role that got feedback.
 */
export async function trainCommand(args: string[]): Promise<number> {
  const { iterations, file, inputs, evalModel, workspace, json } = parseCrewSessionArgs('train', args, MAX_TRAINING_ITERATIONS);
  return withTerminalRuntime({ workspace, json, documentPath: file }, async (t) => {
    const doc = loadCrewFile('train', file, t.workspace);
    const store = TrainingStore.open(t.workspace);
    try {
      const result = await train({
        doc,
        iterations,
        runtime: t.runtime,
        store,
        models: t.models,
        evalModel,
        newVersions: t.settings?.training?.newVersions ?? 'active',
        inputs,
        documentPath: file,
        storedPath: relative(t.workspace, file).split(sep).join('/'),
        signal: t.signal,
        onEvent: t.onEvent,
        onSessionEvent: (e) => {
          if (json) return;
          if (e.type === 'training.iteration.started') {
            t.stopTree();
            process.stdout.write(`\n${t.style.bold(`Training iteration ${e.iteration} of ${e.iterations}`)} ${t.style.dim(e.runId)}\n`);
          }
          if (e.type === 'training.evaluation.started') {
            t.stopTree();
            process.stdout.write(`\n${t.style.dim(`Evaluating the feedback of ${e.roles.length ? e.roles.join(', ') : 'no role'}… (${e.runId})`)}\n`);
          }
        },
      });
      t.stopTree();
      printResult(result, json, t.style);
      return result.status === 'completed' ? EXIT.ok : EXIT.runFailed;
    } catch (error) {
      t.stopTree();
      if (!(error instanceof EvaluatorReplyInvalid)) throw error;
      if (json) process.stdout.write(`${JSON.stringify({ status: 'failed', error: error.message })}\n`);
      else process.stderr.write(`\n${t.style.red('Training failed')}: ${errorMessage(error)}\nNo suggestion version was stored; the feedback records are kept.\n`);
      return EXIT.runFailed;
    } finally {
      store.close();
    }
  });
}

function printResult(result: TrainResult, json: boolean, style: Style): void {
  if (json) {
    process.stdout.write(`${JSON.stringify(result)}\n`);
    return;
  }
  if (result.status !== 'completed') {
    process.stdout.write(`\n${style.red(result.status === 'cancelled' ? 'Training cancelled' : 'Training failed')}: ${result.error?.message ?? ''}\n`);
    return;
  }
  process.stdout.write(`\n${style.bold(`Training ${result.trainingId} done`)}: ${result.runIds.length} run(s), ${result.recordCount} feedback record(s)\n`);
  for (const v of result.versions) {
    process.stdout.write(`\n${style.bold(v.role)} — version ${v.version} (${v.status}), quality ${v.quality}/10\n${style.dim(v.summary)}\n`);
    for (const s of v.suggestions) process.stdout.write(`  - ${s}\n`);
  }
  if (result.rolesWithoutFeedback.length > 0) process.stdout.write(`\n${style.dim(`No feedback, no new version: ${result.rolesWithoutFeedback.join(', ')}`)}\n`);
  if (result.versions.some((v) => v.status === 'draft')) process.stdout.write(`\nNew versions are drafts (workspace setting training.newVersions); approve one with: crewdeck suggestions activate <crewId> <role> <version>\n`);
  process.stdout.write(style.dim(`\nevaluator: ${formatUsageLine(result.evaluatorUsage)}\n`));
}
