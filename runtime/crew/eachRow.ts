import type { CrewDocument } from '../../shared/model/crew';
import type { Problem } from '../../shared/model/problems';
import { isBadInput } from '../badInput';
import { DocumentInvalid, MissingInput } from '../errors';
import { interpolateCrew, resolveInputs } from './interpolate';

/**
 * A crew once per row of inputs (CrewAI's `kickoff_for_each`): the CLI's `--inputs-file` and the
 * host's `runs.startBatch` both check the rows and run them with these two.
 */

/**
 * Each row's inputs (`shared` under the row's own values), checked against the crew before any row
 * runs: every row missing an input is named (`row 2`, the input's name), all of them at once, as a
 * DocumentInvalid of `source`.
 */
export function checkRowInputs(doc: CrewDocument, rows: Record<string, string>[], source: string, shared: Record<string, string> = {}): Record<string, string>[] {
  const problems: Problem[] = [];
  const inputs = rows.map((row, i) => {
    const merged = { ...shared, ...row };
    try {
      interpolateCrew(doc, resolveInputs(doc, merged));
    } catch (error) {
      if (!isBadInput(error)) throw error;
      problems.push({
        path: `row ${i + 1}`,
        message: error instanceof MissingInput ? `no value for the input "${error.input}" (used in ${error.usedIn.join(', ')}), and it has no default` : error.message,
      });
    }
    return merged;
  });
  if (problems.length > 0) throw new DocumentInvalid(source, problems);
  return inputs;
}

/**
 * Runs `runRow` for rows 0..total-1, at most `concurrency` at a time, taking rows in order; results
 * come back in row order. Once `signal` is aborted no further row starts (those stay undefined).
 */
export async function runEachRow<T>(total: number, concurrency: number, signal: AbortSignal | undefined, runRow: (index: number) => Promise<T>): Promise<(T | undefined)[]> {
  const results = new Array<T | undefined>(total).fill(undefined);
  let next = 0;
  const worker = async () => {
    while (next < total && !signal?.aborted) {
      const index = next;
      next += 1;
      results[index] = await runRow(index);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, total)) }, worker));
  return results;
}
