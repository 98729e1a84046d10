import { relative, sep } from 'node:path';
import { errorMessage } from '../../errors';
import { MAX_TEST_ITERATIONS, testCrew } from '../../testing/testCrew';
import { TestStore } from '../../testing/testStore';
import { EvaluatorReplyInvalid } from '../../training/trainingErrors';
import { formatUsageLine, oneLine } from '../format';
import { withTerminalRuntime } from '../sessionRuntime';
import { formatTestTable } from '../testTable';
import { EXIT } from '../usage';
import { loadCrewFile, parseCrewSessionArgs } from './crewSessionArgs';

/**
 * `crewdeck test <file> -n N [--eval-model PROFILE] [--json]`: N unattended runs, each task scored
 * 1–10 by the evaluator and by its deterministic checks; prints the score table.
 */
export async function testCommand(args: string[]): Promise<number> {
  const { iterations, file, inputs, evalModel, workspace, json, quiet: quietFlag, offline } = parseCrewSessionArgs('test', args, MAX_TEST_ITERATIONS);
  const quiet = json || quietFlag;
  return withTerminalRuntime({ workspace, json: quiet, documentPath: file, offline }, async (t) => {
    const doc = loadCrewFile('test', file, t.workspace);
    const store = TestStore.open(t.workspace);
    try {
      const result = await testCrew({
        doc,
        iterations,
        runtime: t.runtime,
        store,
        models: t.models,
        evalModel,
        inputs,
        documentPath: file,
        storedPath: relative(t.workspace, file).split(sep).join('/'),
        signal: t.signal,
        onEvent: t.onEvent,
        onSessionEvent: (e) => {
          if (quiet || e.type !== 'test.iteration.started') return;
          t.stopTree();
          process.stdout.write(`\n${t.style.bold(`Test run ${e.iteration} of ${e.iterations}`)} ${t.style.dim(e.runId)}\n`);
        },
      });
      t.stopTree();
      if (json) {
        process.stdout.write(`${JSON.stringify({ status: 'completed', testId: result.testId, ...result.report, evaluationRunId: result.evaluationRunId, evaluatorUsage: result.evaluatorUsage })}\n`);
      } else {
        process.stdout.write(`\n${t.style.bold(`Test ${result.testId}: ${doc.name}, ${iterations} iteration(s)`)}\n\n${formatTestTable(result.report)}`);
        process.stdout.write(t.style.dim(`\nScores: the evaluator's, 1–10 against each task's expected output. Checks: the task's deterministic checks passed × 10.\nevaluator: ${formatUsageLine(result.evaluatorUsage)}\n`));
        const unscored = result.report.results.filter((r) => r.status === 'completed' && r.score === undefined);
        const [firstUnscored] = unscored;
        if (firstUnscored !== undefined) {
          process.stdout.write(`${t.style.yellow(`${unscored.length} result(s) have no evaluator score`)} — ${oneLine(firstUnscored.reason, 160)} (choose an evaluator with --eval-model PROFILE)\n`);
        }
      }
      const failed = result.report.results.some((r) => r.status === 'failed');
      return failed ? EXIT.runFailed : EXIT.ok;
    } catch (error) {
      t.stopTree();
      if (!(error instanceof EvaluatorReplyInvalid)) throw error;
      if (json) process.stdout.write(`${JSON.stringify({ status: 'failed', error: error.message })}\n`);
      else process.stderr.write(`\n${t.style.red('Test failed')}: ${errorMessage(error)}\n`);
      return EXIT.runFailed;
    } finally {
      store.close();
    }
  });
}
