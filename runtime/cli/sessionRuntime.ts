import { dirname } from 'node:path';
import type { RuntimeEvent } from '../../shared/events';
import type { WorkspaceSettings } from '../../shared/model/workspace';
import { errorMessage, RunNotFound } from '../errors';
import { Recording } from '../offline/recording';
import { isBadInput } from '../badInput';
import { loadWorkspaceSettings } from '../document/loadDocument';
import { ModelResolver } from '../llm/resolveModel';
import { createRuntime, type Runtime } from '../runtime';
import type { SqliteRunStore } from '../store/sqliteRunStore';
import { LiveTree } from './liveTree';
import { openStore } from './openStore';
import { colorFor, createStyle, type Style } from './style';
import { TerminalHuman } from './terminalHuman';
import { cancelOnCtrlC, reportBadInput } from './terminalStop';
import { EXIT } from './usage';
import { workspaceDir } from './workspaceDir';
import { confirmTrustAtTerminal } from './terminalTrust';
import { WorkspaceTrust } from '../trust/workspaceTrust';

export interface TerminalRuntime {
  workspace: string;
  settings: WorkspaceSettings | undefined;
  runtime: Runtime;
  store: SqliteRunStore;
  /** Resolves evaluator models, with script paths relative to the crew file. */
  models: ModelResolver;
  signal: AbortSignal;
  style: Style;
  /** Shows a run's events as a live tree (a fresh tree per run; quiet with --json). */
  onEvent: (event: RuntimeEvent) => void;
  /** Ends the live display before printing a result. */
  stopTree(): void;
}

/**
 * Several runs from the terminal (training, tests): the workspace's store and settings, a human at the
 * terminal (piped answers work, one line per question), a live tree per run, Ctrl-C cancels. Bad input
 * prints `error: …` (or a JSON `{status: "invalid"}` with --json) and returns exit code 2.
 */
export async function withTerminalRuntime(
  /** `offline`: a recorded run every run answers from (models, http_request); evaluator calls are not in it and fail. */
  options: { workspace: string; json: boolean; documentPath: string; offline?: string },
  body: (t: TerminalRuntime) => Promise<number>,
): Promise<number> {
  const out = process.stdout;
  const style = createStyle(!options.json && colorFor(out));
  let tree: LiveTree | undefined;
  let currentRun: string | undefined;
  const hooks = { pause: () => tree?.pause(), resume: () => tree?.resume() };
  const human = new TerminalHuman(options.json ? process.stderr : out, createStyle(colorFor(options.json ? process.stderr : out)), hooks);
  const controller = new AbortController();
  const detachCtrlC = cancelOnCtrlC(controller, 'the runs');
  const stopTree = () => {
    tree?.stop();
    tree = undefined;
  };
  let store: SqliteRunStore | undefined;
  try {
    const workspace = workspaceDir(options.workspace);
    const settings = loadWorkspaceSettings(workspace);
    // Offline nothing is sent anywhere and no server starts: there is nothing to trust.
    if (options.offline === undefined) await confirmTrustAtTerminal(workspace, settings, options.json, style);
    store = openStore(workspace, options.offline === undefined);
    if (!store) throw new RunNotFound(options.offline ?? '');
    const offline = options.offline === undefined ? undefined : Recording.fromStore(store, options.offline);
    const trust = new WorkspaceTrust(workspace);
    const runtime = createRuntime({ workspace, store, human, settings, trust, offline });
    const models = new ModelResolver({ settings, baseDir: dirname(options.documentPath), trust, recording: offline });
    const onEvent = (event: RuntimeEvent) => {
      if (options.json) return;
      if (event.runId !== currentRun) {
        stopTree();
        currentRun = event.runId;
        tree = new LiveTree({ out, style, spinner: Boolean(out.isTTY) });
        tree.start();
      }
      tree?.handle(event);
    };
    return await body({ workspace, settings, runtime, store, models, signal: controller.signal, style, onEvent, stopTree });
  } catch (error) {
    stopTree();
    if (!isBadInput(error)) {
      // A model that fails (the evaluator, say) ends the command as a failed run, with its reason.
      if (options.json) out.write(`${JSON.stringify({ status: 'failed', error: errorMessage(error) })}\n`);
      else process.stderr.write(`${style.red('error:')} ${errorMessage(error)}\n`);
      return EXIT.runFailed;
    }
    return reportBadInput(error, options.json, style);
  } finally {
    stopTree();
    detachCtrlC();
    human.close();
    store?.close();
  }
}
