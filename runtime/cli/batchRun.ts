import { relative, resolve, sep } from 'node:path';
import type { CrewDocument } from '../../shared/model/crew';
import type { CrewRunResult } from '../crew/kickoff';
import { checkRowInputs } from '../crew/eachRow';
import { isBadInput } from '../badInput';
import { loadWorkspaceSettings } from '../document/loadDocument';
import { createRuntime } from '../runtime';
import type { SqliteRunStore } from '../store/sqliteRunStore';
import type { BatchRecord, BatchRowRecord } from '../store/types';
import { workspaceSuggestions } from '../training/suggestionSource';
import { newBatchId, runBatchRows, suggestionsOnce } from '../batch/storedBatch';
import { newRunId } from '../runId';
import { LiveTree } from './liveTree';
import { openStore } from './openStore';
import { runJson } from './session';
import { colorFor, createStyle, type Style } from './style';
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
 * kickoff_for_each), up to `concurrency` at a time, each a run of its own in the store. The batch is a
 * stored record (its rows, each row's status and run): `crewdeck batches` lists, shows, resumes and
 * cancels it, also after the process died. The live tree announces each row with a counter; --json
 * prints `{batchId, status, runs}` with the usual run object per row, in row order. Exit 0 when every
 * row completed, 1 otherwise; a row missing an input is bad input (2) and found before any row runs.
 */
export async function runBatchInTerminal(options: BatchOptions): Promise<number> {
  return inTerminal(options.json, options.workspace, (workspace, store) => {
    const rowInputs = checkRowInputs(options.doc, options.rows, options.rowsFile, options.inputs);
    const now = Date.now();
    const batch: BatchRecord = {
      id: newBatchId(now),
      documentId: options.doc.id,
      name: options.doc.name,
      documentPath: relative(workspace, resolve(options.documentPath)).split(sep).join('/'),
      concurrency: options.concurrency,
      source: options.rowsFile,
      ...(options.forceProfile ? { model: options.forceProfile } : {}),
      inputs: options.inputs,
      status: 'running',
      createdAt: now,
      rows: rowInputs.map((inputs, index) => ({ index, inputs, status: 'queued', runId: newRunId(now) })),
    };
    store.createBatch({ ...batch, rows: batch.rows.map((r) => ({ inputs: r.inputs, runId: r.runId })) });
    return { batch, doc: options.doc, rows: batch.rows, forceProfile: options.forceProfile };
  });
}

export interface BatchPlan {
  batch: BatchRecord;
  doc: CrewDocument;
  /** The rows to run now (all of a new batch; a resume's rows not completed). */
  rows: BatchRowRecord[];
  forceProfile?: string;
}

/**
 * Runs a planned batch at the terminal (a new one, or `crewdeck batches resume`): trust first, then the
 * rows through one runtime whose trained suggestions are read once for the whole batch.
 */
export async function inTerminal(json: boolean, workspaceOption: string, plan: (workspace: string, store: SqliteRunStore) => BatchPlan): Promise<number> {
  const out = process.stdout;
  const style = createStyle(!json && colorFor(out));
  const tree = new LiveTree({ out, style, spinner: !json && Boolean(out.isTTY) });
  const human = new TerminalHuman(json ? process.stderr : out, createStyle(colorFor(json ? process.stderr : out)), tree);
  const controller = new AbortController();
  const detachCtrlC = cancelOnCtrlC(controller, 'the runs');
  let store: SqliteRunStore | undefined;
  try {
    const workspace = workspaceDir(workspaceOption);
    const settings = loadWorkspaceSettings(workspace);
    await confirmTrustAtTerminal(workspace, settings, json, style);
    store = openStore(workspace, true)!;
    const { batch, doc, rows, forceProfile } = plan(workspace, store);
    const suggestions = suggestionsOnce(workspaceSuggestions(workspace));
    const runtime = createRuntime({ workspace, store, human, settings, forceProfile, suggestions });
    const total = batch.rows.length;
    tree.start();
    let done = 0;
    const documentPath = resolve(workspace, batch.documentPath);
    const { runs, status } = await runBatchRows(
      store,
      batch,
      rows,
      controller.signal,
      async (row) => {
        if (!json) tree.note(`${style.bold(`▶ row ${row.index + 1}/${total}`)} ${style.dim(describeRow(row.inputs))}`);
        const r = await runtime.runCrew(doc, { runId: row.runId, inputs: row.inputs, documentPath, signal: controller.signal, onEvent: json ? () => {} : (e) => tree.handle(e) });
        done += 1;
        if (!json) tree.note(`${r.status === 'completed' ? style.green('✓') : style.red('✗')} row ${row.index + 1}/${total} ${r.status} ${style.dim(`· ${done}/${rows.length} done · ${r.runId}`)}`);
        return r;
      },
      () => Date.now(),
    );
    tree.stop();
    const finished = runs.flatMap((r) => (r?.result ? [r.result] : []));
    if (json) out.write(`${JSON.stringify({ batchId: batch.id, status, runs: finished.map((r) => runJson(r)) })}\n`);
    else writeSummary(batch, runs.flatMap((r) => (r ? [r] : [])), style);
    return status === 'completed' ? EXIT.ok : EXIT.runFailed;
  } catch (error) {
    tree.stop();
    if (!isBadInput(error)) throw error;
    return reportBadInput(error, json, style);
  } finally {
    detachCtrlC();
    human.close();
    store?.close();
  }
}

function writeSummary(batch: BatchRecord, ran: { row: BatchRowRecord; result?: CrewRunResult; error?: unknown }[], style: Style): void {
  const out = process.stdout;
  const total = batch.rows.length;
  out.write(`\n${style.bold('Rows')}\n`);
  for (const { row, result } of ran) {
    const mark = row.status === 'completed' ? style.green('✓') : style.red('✗');
    out.write(`${mark} row ${row.index + 1}/${total} ${row.status} ${style.dim(row.runId)}${row.error ? ` — ${row.error}` : result?.error ? ` — ${result.error.message}` : ''}\n`);
  }
  const completed = batch.rows.filter((r) => r.status === 'completed').length;
  out.write(style.dim(`${completed}/${total} rows completed · batch ${batch.id}${completed < total ? ` (crewdeck batches resume ${batch.id} runs the rest)` : ''}\n`));
}

function describeRow(row: Record<string, string>): string {
  const text = Object.entries(row)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}
