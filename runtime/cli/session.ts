import type { RuntimeEvent } from '../../shared/events';
import { WorkspaceInvalid } from '../errors';
import { workspaceDatabasePath } from '../store/database';
import type { CrewRunResult } from '../crew/kickoff';
import type { FlowRunResult } from '../flow/flowRun';
import { loadWorkspaceSettings } from '../document/loadDocument';
import { createRuntime, type Runtime } from '../runtime';
import type { SqliteRunStore } from '../store/sqliteRunStore';
import { openStore } from './openStore';
import { isBadInput } from '../badInput';
import { formatUsageLine } from './format';
import { LiveTree } from './liveTree';
import { colorFor, createStyle } from './style';
import { TerminalHuman } from './terminalHuman';
import { cancelOnCtrlC, reportBadInput } from './terminalStop';
import { workspaceDir } from './workspaceDir';
import { confirmTrustAtTerminal } from './terminalTrust';
import { EXIT } from './usage';

export interface SessionOptions {
  workspace: string;
  json: boolean;
  forceProfile?: string;
  /** Create the workspace's run store if it has none (run: yes; replay: there is nothing to replay). */
  createStore: boolean;
}

type Start = (runtime: Runtime, run: { signal: AbortSignal; onEvent: (e: RuntimeEvent) => void }) => Promise<CrewRunResult | FlowRunResult>;

/**
 * Runs one crew or flow run from the terminal: opens the workspace, shows the live tree (or stays quiet with
 * --json), asks the human at the terminal, cancels on Ctrl-C, prints the result, returns the exit code.
 */
export async function runInTerminal(options: SessionOptions, prepare: () => Start): Promise<number> {
  const out = process.stdout;
  const style = createStyle(!options.json && colorFor(out));
  const tree = new LiveTree({ out, style, spinner: !options.json && Boolean(out.isTTY) });
  const human = new TerminalHuman(options.json ? process.stderr : out, createStyle(colorFor(options.json ? process.stderr : out)), tree);
  const controller = new AbortController();
  const detachCtrlC = cancelOnCtrlC(controller, 'the run');

  let store: SqliteRunStore | undefined;
  try {
    const workspace = workspaceDir(options.workspace);
    const settings = loadWorkspaceSettings(workspace);
    await confirmTrustAtTerminal(workspace, settings, options.json, style);
    // Bad input (an invalid document…) is found before anything is written to the workspace.
    const start = prepare();
    store = openStore(workspace, options.createStore);
    if (!store) throw new WorkspaceInvalid(`there are no runs in ${workspace} (no ${workspaceDatabasePath(workspace)}); use --workspace`);
    const runtime = createRuntime({ workspace, store, human, settings, forceProfile: options.forceProfile });
    tree.start();
    const result = await start(runtime, { signal: controller.signal, onEvent: options.json ? () => {} : (e) => tree.handle(e) });
    tree.stop();
    printResult(result, options.json, style);
    // A paused flow did what it should: it waits for `crewdeck resume`.
    return result.status === 'completed' || result.status === 'paused' ? EXIT.ok : EXIT.runFailed;
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

function printResult(result: CrewRunResult | FlowRunResult, json: boolean, style: ReturnType<typeof createStyle>): void {
  const flow = 'state' in result ? result : undefined;
  if (json) {
    const body = {
      runId: result.runId,
      status: result.status === 'completed' || result.status === 'paused' ? result.status : 'failed',
      output: result.output,
      ...(flow ? { state: flow.state } : { tasks: (result as CrewRunResult).tasks }),
      ...(flow?.pending ? { pending: flow.pending } : {}),
      tokenUsage: result.tokenUsage,
      ...(result.error ? { error: result.status === 'cancelled' ? `run cancelled: ${result.error.message}` : result.error.message } : {}),
    };
    process.stdout.write(`${JSON.stringify(body)}\n`);
    return;
  }
  if (result.status === 'completed') {
    process.stdout.write(`\n${style.bold('Output')}\n${result.output}\n\n${style.dim(`run ${result.runId} · ${formatUsageLine(result.tokenUsage)}`)}\n`);
    process.stdout.write(style.dim(`See it again: crewdeck runs show ${result.runId}\n`));
  } else if (flow?.pending) {
    const p = flow.pending;
    process.stdout.write(`\n${style.bold(`Paused: "${p.methodName}" waits for your feedback`)}\n${p.message}\n`);
    if (p.output) process.stdout.write(`\n${style.dim('Under review:')}\n${p.output}\n`);
    if (p.outcomes) process.stdout.write(`\n${style.dim(`Outcomes: ${p.outcomes.join(', ')}${p.defaultOutcome ? ` (empty feedback: ${p.defaultOutcome})` : ''}`)}\n`);
    process.stdout.write(`\nAnswer with: crewdeck resume ${result.runId} --feedback "…"\n`);
  } else {
    process.stdout.write(`\n${style.red(result.status === 'cancelled' ? 'Run cancelled' : 'Run failed')}: ${result.error?.message ?? ''}\n`);
    process.stdout.write(style.dim(`Events: crewdeck runs events ${result.runId}\n`));
  }
}
