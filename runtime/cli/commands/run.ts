import { dirname, resolve } from 'node:path';
import { wantsServer } from '../team/teamCliClient';
import { loadWorkspaceDocument } from '../../document/workspaceDocument';
import { runBatchInTerminal } from '../batchRun';
import { readInputRows } from '../inputRows';
import { parseInputs, parseOptions } from '../options';
import { runInTerminal } from '../session';
import { colorFor, createStyle } from '../style';
import { reportBadInput } from '../terminalStop';
import { isBadInput } from '../../badInput';
import { UsageError } from '../usage';
import { BUDGET_OPTIONS, parseBudgetOptions } from '../budgetOptions';

export async function runCommand(args: string[]): Promise<number> {
  // The team server (`--server URL`): runtime/cli/team/.
  if (wantsServer(args)) return (await import('../team/remoteRun')).remoteRunCommand(args);
  const { values, positionals } = parseOptions(args, {
    input: { type: 'string', multiple: true, short: 'i' },
    inputs: { type: 'string' },
    'inputs-file': { type: 'string' },
    concurrency: { type: 'string' },
    model: { type: 'string' },
    workspace: { type: 'string', short: 'w' },
    json: { type: 'boolean', default: false },
    offline: { type: 'string' },
    'pause-for-humans': { type: 'boolean', default: false },
    ...BUDGET_OPTIONS,
  });
  const [given] = positionals;
  if (given === undefined || positionals.length !== 1) throw new UsageError('run needs exactly one crew or flow file');
  const file = resolve(given);
  const inputs = parseInputs(values.input, values.inputs);
  const budget = parseBudgetOptions(values);
  const rowsFile = values['inputs-file'];
  if (values.concurrency !== undefined && rowsFile === undefined) throw new UsageError('--concurrency only applies with --inputs-file');
  if (rowsFile !== undefined) {
    const concurrency = values.concurrency === undefined ? 1 : Number(values.concurrency);
    if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 64) throw new UsageError(`--concurrency must be a whole number from 1 to 64, got ${values.concurrency}`);
    if (values.offline !== undefined) throw new UsageError('--offline re-runs one recorded run; it cannot be combined with --inputs-file');
    return runBatch(file, resolve(rowsFile), inputs, concurrency, values);
  }
  return runInTerminal(
    { workspace: values.workspace ?? dirname(file), json: values.json ?? false, forceProfile: values.model, createStore: true, offline: values.offline, pauseForHumans: values['pause-for-humans'] },
    () => {
      // A file on the command line must be inside the workspace, symbolic links resolved.
      const loaded = loadWorkspaceDocument(values.workspace ?? dirname(file), file);
      return loaded.kind === 'flow'
        ? (runtime, run) => runtime.runFlow(loaded.doc, { ...run, inputs, documentPath: file, budget })
        : (runtime, run) => runtime.runCrew(loaded.doc, { ...run, inputs, documentPath: file, budget });
    },
  );
}

/** `--inputs-file`: the crew once per row. Bad documents and rows are reported like any bad input (exit 2). */
async function runBatch(
  file: string,
  rowsFile: string,
  inputs: Record<string, string>,
  concurrency: number,
  values: { workspace?: string; json?: boolean; model?: string },
): Promise<number> {
  const json = values.json ?? false;
  let loaded;
  let rows;
  try {
    loaded = loadWorkspaceDocument(values.workspace ?? dirname(file), file);
    rows = readInputRows(rowsFile);
  } catch (error) {
    if (!isBadInput(error)) throw error;
    return reportBadInput(error, json, createStyle(!json && colorFor(process.stdout)));
  }
  if (loaded.kind !== 'crew') throw new UsageError('--inputs-file runs a crew once per row; for a flow, use a for_each method');
  return runBatchInTerminal({ workspace: values.workspace ?? dirname(file), json, forceProfile: values.model, doc: loaded.doc, documentPath: file, rowsFile, rows, inputs, concurrency });
}
