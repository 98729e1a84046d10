import { dirname, relative, resolve, sep } from 'node:path';
import { loadDocumentFile } from '../../document/loadDocument';
import { errorMessage } from '../../errors';
import { MAX_TRAINING_ITERATIONS, train, type TrainResult } from '../../training/train';
import { EvaluatorReplyInvalid } from '../../training/trainingErrors';
import { TrainingStore } from '../../training/trainingStore';
import { formatUsageLine } from '../format';
import { parseInputs, parseOptions } from '../options';
import { withTerminalRuntime } from '../sessionRuntime';
import type { Style } from '../style';
import { EXIT, UsageError } from '../usage';
import { parseIterations } from './iterationsOption';

/**
 * `crewdeck train <file> -n N [--eval-model PROFILE] [--json]`: N runs with every task reviewed at the
 * terminal, then one suggestion version per role that got feedback.
 */
export async function trainCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseOptions(args, {
    n: { type: 'string', short: 'n' },
    'eval-model': { type: 'string' },
    input: { type: 'string', multiple: true, short: 'i' },
    inputs: { type: 'string' },
    workspace: { type: 'string', short: 'w' },
    json: { type: 'boolean', default: false },
  });
  if (positionals.length !== 1) throw new UsageError('train needs exactly one crew file');
  const iterations = parseIterations(values.n, 'train', MAX_TRAINING_ITERATIONS);
  const file = resolve(positionals[0]);
  const inputs = parseInputs(values.input, values.inputs);
  const json = values.json ?? false;
  return withTerminalRuntime({ workspace: values.workspace ?? dirname(file), json, documentPath: file }, async (t) => {
    const loaded = loadDocumentFile(file);
    if (loaded.kind !== 'crew') throw new UsageError('train works on crews (*.crew.json), not flows');
    const store = TrainingStore.open(t.workspace);
    try {
      const result = await train({
        doc: loaded.doc,
        iterations,
        runtime: t.runtime,
        store,
        models: t.models,
        evalModel: values['eval-model'],
        newVersions: t.settings?.training?.newVersions ?? 'active',
        inputs,
        documentPath: file,
        storedPath: relative(t.workspace, file).split(sep).join('/'),
        signal: t.signal,
        onEvent: t.onEvent,
        onProgress: (p) => {
          if (json) return;
          t.stopTree();
          if (p.phase === 'run') process.stdout.write(`\n${t.style.bold(`Training iteration ${p.iteration} of ${p.iterations}`)} ${t.style.dim(p.runId)}\n`);
          if (p.phase === 'evaluating') process.stdout.write(`\n${t.style.dim(`Evaluating the feedback of ${p.roles.length ? p.roles.join(', ') : 'no role'}…`)}\n`);
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
