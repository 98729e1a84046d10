import { RunNotFound, RunNotReopenable, WorkspaceInvalid } from '../../errors';
import { wantsServer } from '../team/teamCliClient';
import { FlowNotResumable } from '../../flow/flowErrors';
import type { SqliteRunStore } from '../../store/sqliteRunStore';
import type { RunRecord } from '../../store/types';
import { eventLine, runsTable, writeRunText } from '../runText';
import { diffRuns } from '../../runs/runDiff';
import { runDiffText } from '../runDiffText';
import { parseOptions } from '../options';
import { colorFor, createStyle, type Style } from '../style';
import { EXIT, UsageError } from '../usage';
import { openStore } from '../openStore';
import { reportBadInput } from '../terminalStop';
import { workspaceDir } from '../workspaceDir';

export async function runsCommand(args: string[]): Promise<number> {
  // The team server (`--server URL`): runtime/cli/team/.
  if (wantsServer(args)) return (await import('../team/remoteRuns')).remoteRunsCommand(args);
  const { values, positionals } = parseOptions(args, {
    workspace: { type: 'string', short: 'w' },
    json: { type: 'boolean', default: false },
    limit: { type: 'string' },
    after: { type: 'string' },
  });
  const [sub, runId, ...rest] = positionals;
  // `runs diff <runA> <runB>` takes a second run id.
  const [otherRunId, ...extra] = sub === 'diff' ? rest : [undefined, ...rest];
  if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}"`);
  if (!['list', 'show', 'events', 'cancel', 'diff'].includes(sub ?? '')) {
    throw new UsageError(sub === undefined ? 'runs needs a subcommand: list, show, events, diff or cancel' : `unknown subcommand "runs ${sub}"; use list, show, events, diff or cancel`);
  }
  if (sub === 'diff' && otherRunId === undefined) throw new UsageError('runs diff needs two run ids: crewdeck runs diff <runA> <runB>');
  const style = createStyle(!values.json && colorFor(process.stdout));
  const json = values.json ?? false;
  let store: SqliteRunStore | undefined;
  try {
    // Reading never creates a workspace database: an empty workspace simply has no runs.
    store = openStore(workspaceDir(values.workspace ?? process.cwd()), false);
    if (!store) {
      if (sub !== 'list') throw new RunNotFound(runId ?? '');
      process.stdout.write(json ? '[]\n' : 'No runs in this workspace yet. Start one with `crewdeck run <file.crew.json>`.\n');
      return EXIT.ok;
    }
    switch (sub) {
      case 'list':
        return list(store, json, style, positiveInt(values.limit, 'limit') ?? 20);
      case 'show':
        return show(store, requireRun(store, runId), json, style);
      case 'events':
        return events(store, requireRun(store, runId), json, style, positiveInt(values.after, 'after') ?? 0);
      case 'diff': {
        const diff = diffRuns(store, requireRun(store, runId).id, requireRun(store, otherRunId).id);
        process.stdout.write(json ? `${JSON.stringify(diff)}\n` : runDiffText(diff, style));
        return EXIT.ok;
      }
      case 'cancel': {
        // A paused or interrupted run (a flow, or a crew at its budget or whose process died) has no
        // process to stop: it is ended where it is stored.
        const run = requireRun(store, runId);
        const { createRuntime } = await import('../../runtime'); // loaded only here: list/show/events stay light
        const reason = run.status === 'interrupted' ? 'cancelled from the command line after its process stopped' : 'cancelled from the command line while it waited';
        createRuntime({ workspace: workspaceDir(values.workspace ?? process.cwd()), store }).cancelStopped(run.id, reason);
        process.stdout.write(json ? `${JSON.stringify({ runId: run.id, status: 'cancelled' })}\n` : `Cancelled ${run.id} (${run.name}); it will not be resumed.\n`);
        return EXIT.ok;
      }
      default:
        throw new UsageError(`unknown subcommand "runs ${sub}"`);
    }
  } catch (error) {
    if (!(error instanceof RunNotFound || error instanceof WorkspaceInvalid || error instanceof FlowNotResumable || error instanceof RunNotReopenable)) throw error;
    return reportBadInput(error, json, style);
  } finally {
    store?.close();
  }
}

function requireRun(store: SqliteRunStore, runId: string | undefined): RunRecord {
  if (!runId) throw new UsageError('a run id is needed (see `crewdeck runs list`)');
  const run = store.getRun(runId);
  if (!run) throw new RunNotFound(runId);
  return run;
}

function positiveInt(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new UsageError(`--${name} must be a whole number, got "${value}"`);
  return n;
}

function list(store: SqliteRunStore, json: boolean, style: Style, limit: number): number {
  const runs = store.listRuns({ limit });
  if (json) {
    process.stdout.write(`${JSON.stringify(runs)}\n`);
    return EXIT.ok;
  }
  if (runs.length === 0) {
    process.stdout.write('No runs in this workspace yet. Start one with `crewdeck run <file.crew.json>`.\n');
    return EXIT.ok;
  }
  process.stdout.write(runsTable(runs, style));
  return EXIT.ok;
}

function show(store: SqliteRunStore, run: RunRecord, json: boolean, style: Style): number {
  const outputs = store.taskOutputs(run.id);
  if (json) {
    const { document: _document, ...rest } = run;
    process.stdout.write(`${JSON.stringify({ ...rest, tasks: outputs })}\n`);
    return EXIT.ok;
  }
  writeRunText(process.stdout, run, store.events(run.id), style);
  return EXIT.ok;
}

function events(store: SqliteRunStore, run: RunRecord, json: boolean, style: Style, after: number): number {
  for (const event of store.events(run.id, after)) process.stdout.write(eventLine(event, json, style));
  return EXIT.ok;
}
