import type { CrewDocument } from '../../shared/model/crew';
import type { CrewRunResult } from '../crew/kickoff';
import { checkRowInputs, runEachRow } from '../crew/eachRow';
import { isBadInput } from '../badInput';
import { loadWorkspaceSettings } from '../document/loadDocument';
import { createRuntime } from '../runtime';
import type { SqliteRunStore } from '../store/sqliteRunStore';
import { LiveTree } from './liveTree';
import { openStore } from './openStore';
import { runJson } from './session';
import { colorFor, createStyle } from './style';
import { TerminalHuman } from './terminalHuman';
import { cancelOnCtrlC, reportBadInput } from './terminalStop';
import { confirmTrustAtTerminal } from './terminalTrust';
import { EXIT } from './usage';
import { workspaceDir } from './workspaceDir';

export interface BatchOptions {
  workspace: string;
  json: boolean;
  forceProfile?: string;
  doc: CrewDocument;
  documentPath: string;
  /** The inputs file (for messages) and its rows, in order. */
  rowsFile: string;
  rows: Record<string, string>[];
  /** --input / --inputs given on the command line: the rows' values win over them. */
  inputs: Record<string, string>;
  /** Rows run at the same time (default 1). */
  concurrency: number;
}

/**
 * `crewdeck run <crew> --inputs-file rows.csv|rows.jsonl`: one run of the crew per row (CrewAI's
 * kickoff_for_each), up to `concurrency` at a time, each a run of its own in the store. The live tree
 * announces each row with a counter; --json prints `{status, runs}` with the usual run object per row,
 * in row order. Exit 0 when every row completed, 1 otherwise; a row missing an input is bad input (2)
 * and found before any row runs.
 */
export async function runBatchInTerminal(options: BatchOptions): Promise<number> {
  const out = process.stdout;
  const style = createStyle(!options.json && colorFor(out));
  const tree = new LiveTree({ out, style, spinner: !options.json && Boolean(out.isTTY) });
  const human = new TerminalHuman(options.json ? process.stderr : out, createStyle(colorFor(options.json ? process.stderr : out)), tree);
  const controller = new AbortController();
  const detachCtrlC = cancelOnCtrlC(controller, 'the runs');
  const total = options.rows.length;
  let store: SqliteRunStore | undefined;
  try {
    const workspace = workspaceDir(options.workspace);
    const settings = loadWorkspaceSettings(workspace);
    await confirmTrustAtTerminal(workspace, settings, options.json, style);
    const rowInputs = checkRowInputs(options.doc, options.rows, options.rowsFile, options.inputs);
    store = openStore(workspace, true)!;
    const runtime = createRuntime({ workspace, store, human, settings, forceProfile: options.forceProfile });
    tree.start();
    let done = 0;
    const results = await runEachRow(total, options.concurrency, controller.signal, async (index) => {
      if (!options.json) tree.note(`${style.bold(`▶ row ${index + 1}/${total}`)} ${style.dim(describeRow(options.rows[index]))}`);
      const r = await runtime.runCrew(options.doc, {
        inputs: rowInputs[index],
        documentPath: options.documentPath,
        signal: controller.signal,
        onEvent: options.json ? () => {} : (e) => tree.handle(e),
      });
      done += 1;
      if (!options.json) tree.note(`${r.status === 'completed' ? style.green('✓') : style.red('✗')} row ${index + 1}/${total} ${r.status} ${style.dim(`· ${done}/${total} done · ${r.runId}`)}`);
      return r;
    });
    tree.stop();
    const finished = results.filter((r): r is CrewRunResult => r !== undefined);
    const allCompleted = finished.length === total && finished.every((r) => r.status === 'completed');
    if (options.json) {
      out.write(`${JSON.stringify({ status: allCompleted ? 'completed' : 'failed', runs: finished.map((r) => runJson(r)) })}\n`);
    } else {
      out.write(`\n${style.bold('Rows')}\n`);
      results.forEach((r, i) => {
        if (!r) return;
        const mark = r.status === 'completed' ? style.green('✓') : style.red('✗');
        out.write(`${mark} row ${i + 1}/${total} ${r.status} ${style.dim(r.runId)}${r.error ? ` — ${r.error.message}` : ''}\n`);
      });
      out.write(style.dim(`${finished.filter((r) => r.status === 'completed').length}/${total} rows completed\n`));
    }
    return allCompleted ? EXIT.ok : EXIT.runFailed;
  } catch (error) {
    tree.stop();
    if (!isBadInput(error)) throw error;
    return reportBadInput(error, options.json, style);
  } finally {
    detachCtrlC();
    human.close();
    store?.close();
  }
}

function describeRow(row: Record<string, string>): string {
  const text = Object.entries(row)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}
