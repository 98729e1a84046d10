import { loadWorkspaceDocument } from '../../document/workspaceDocument';
import { BatchNotFound, BatchNotResumable } from '../../errors';
import { isBadInput } from '../../badInput';
import { rowsToResume, sameCrew } from '../../batch/storedBatch';
import { checkRowInputs } from '../../crew/eachRow';
import type { SqliteRunStore } from '../../store/sqliteRunStore';
import type { BatchRecord, BatchSummary } from '../../store/types';
import { inTerminal } from '../batchRun';
import { batchesTable, writeBatchText } from '../batchText';
import { openStore } from '../openStore';
import { parseOptions } from '../options';
import { colorFor, createStyle, type Style } from '../style';
import { reportBadInput } from '../terminalStop';
import { EXIT, UsageError } from '../usage';
import { workspaceDir } from '../workspaceDir';
import { wantsServer } from '../team/teamCliClient';

const SUBCOMMANDS = ['list', 'show', 'resume', 'cancel'];

/** `crewdeck batches list|show|resume|cancel`: the stored batches of --inputs-file runs and the app's row runs. */
export async function batchesCommand(args: string[]): Promise<number> {
  // The team server (`--server URL`): runtime/cli/team/.
  if (wantsServer(args)) return (await import('../team/remoteBatches')).remoteBatchesCommand(args);
  const { values, positionals } = parseOptions(args, {
    workspace: { type: 'string', short: 'w' },
    json: { type: 'boolean', default: false },
    limit: { type: 'string' },
  });
  const [sub, batchId, ...extra] = positionals;
  if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}"`);
  if (!SUBCOMMANDS.includes(sub ?? '')) {
    throw new UsageError(sub === undefined ? 'batches needs a subcommand: list, show, resume or cancel' : `unknown subcommand "batches ${sub}"; use list, show, resume or cancel`);
  }
  if (sub !== 'list' && !batchId) throw new UsageError(`batches ${sub} needs a batch id (see \`crewdeck batches list\`)`);
  const json = values.json ?? false;
  const style = createStyle(!json && colorFor(process.stdout));
  const workspace = workspaceDir(values.workspace ?? process.cwd());
  if (sub === 'resume') return resume(workspace, batchId!, json);
  let store: SqliteRunStore | undefined;
  try {
    store = openStore(workspace, false);
    if (sub === 'list') return list(store, json, style, limitOf(values.limit));
    if (!store) throw new BatchNotFound(batchId!);
    if (sub === 'show') return show(requireBatch(store, batchId!), json, style);
    return await cancel(store, workspace, requireBatch(store, batchId!), json);
  } catch (error) {
    if (!isBadInput(error)) throw error;
    return reportBadInput(error, json, style);
  } finally {
    store?.close();
  }
}

function limitOf(value: string | undefined): number {
  if (value === undefined) return 20;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`--limit must be a whole number from 1, got "${value}"`);
  return n;
}

function requireBatch(store: SqliteRunStore, batchId: string): BatchRecord {
  const batch = store.getBatch(batchId);
  if (!batch) throw new BatchNotFound(batchId);
  return batch;
}

function list(store: SqliteRunStore | undefined, json: boolean, style: Style, limit: number): number {
  const batches: BatchSummary[] = store?.listBatches({ limit }) ?? [];
  if (json) {
    process.stdout.write(`${JSON.stringify({ batches })}\n`);
    return EXIT.ok;
  }
  if (batches.length === 0) {
    process.stdout.write('No batches in this workspace yet. Run a crew once per row with `crewdeck run <file.crew.json> --inputs-file rows.csv`.\n');
    return EXIT.ok;
  }
  process.stdout.write(batchesTable(batches, style));
  return EXIT.ok;
}

function show(batch: BatchRecord, json: boolean, style: Style): number {
  if (json) {
    process.stdout.write(`${JSON.stringify({ batch })}\n`);
    return EXIT.ok;
  }
  writeBatchText(process.stdout, batch, style);
  if (batch.status === 'interrupted' || batch.status === 'cancelled' || batch.status === 'failed') {
    const left = batch.rows.filter((r) => r.status !== 'completed').length;
    if (left > 0) process.stdout.write(style.dim(`\n${left} row${left === 1 ? '' : 's'} not completed: crewdeck batches resume ${batch.id}\n`));
  }
  return EXIT.ok;
}

/** Runs the rows that did not complete; the ones that did are not run again (no model call). */
async function resume(workspace: string, batchId: string, json: boolean): Promise<number> {
  return inTerminal(json, workspace, (root, store) => {
    const batch = store.getBatch(batchId);
    if (!batch) throw new BatchNotFound(batchId);
    const loaded = loadWorkspaceDocument(root, batch.documentPath);
    if (loaded.kind !== 'crew') throw new BatchNotResumable(`${batch.documentPath} is no longer a crew`);
    sameCrew(batch, loaded.doc);
    store.reopenBatch(batchId);
    const rows = rowsToResume(store, batch, Date.now());
    // The rows are checked against the crew as it is now, before any of them runs.
    checkRowInputs(loaded.doc, rows.map((r) => r.inputs), `batch ${batch.id}`);
    return { batch, doc: loaded.doc, rows, ...(batch.model ? { forceProfile: batch.model } : {}) };
  });
}

/**
 * Stops a batch for good: its rows not completed end cancelled (a row's paused run is cancelled too).
 * A batch still running in a live process is refused: stop that process (Ctrl-C) instead.
 */
async function cancel(store: SqliteRunStore, workspace: string, batch: BatchRecord, json: boolean): Promise<number> {
  if (batch.status === 'running') throw new BatchNotResumable(`batch ${batch.id} is running in another process; stop it there (Ctrl-C) first`);
  const { createRuntime } = await import('../../runtime');
  const runtime = createRuntime({ workspace, store });
  let cancelled = 0;
  for (const row of batch.rows) {
    if (row.status === 'completed' || row.status === 'failed' || row.status === 'cancelled') continue;
    const run = store.getRun(row.runId);
    if (run && (run.status === 'paused' || run.status === 'interrupted')) runtime.cancelStopped(run.id, 'the batch was cancelled from the command line');
    store.updateBatchRow(batch.id, row.index, { status: 'cancelled', error: 'the batch was cancelled before this row completed' });
    row.status = 'cancelled';
    cancelled += 1;
  }
  store.finishBatch(batch.id, batch.rows.every((r) => r.status === 'completed') ? 'completed' : batch.rows.some((r) => r.status === 'failed') ? 'failed' : 'cancelled', Date.now());
  const after = requireBatch(store, batch.id);
  process.stdout.write(json ? `${JSON.stringify({ batchId: batch.id, status: after.status, cancelled })}\n` : `Cancelled ${cancelled} row${cancelled === 1 ? '' : 's'} of ${batch.id}; it is ${after.status}.\n`);
  return EXIT.ok;
}
