import { isAbsolute, relative, resolve } from 'node:path';
import type { RuntimeEvent, StubReached } from '../../shared/events';
import { describeStubsReached } from '../../shared/stubsReached';
import { WorkspaceInvalid } from '../errors';
import { workspaceDatabasePath } from '../store/database';
import type { CrewRunResult } from '../crew/kickoff';
import type { FlowRunResult } from '../flow/flowRunTypes';
import { loadWorkspaceSettings } from '../document/loadDocument';
import { createRuntime, type Runtime } from '../runtime';
import type { SqliteRunStore } from '../store/sqliteRunStore';
import { openStore } from './openStore';
import { isBadInput } from '../badInput';
import { formatUsageLine } from './format';
import { LiveTree } from './liveTree';
import { colorFor, createStyle } from './style';
import { TerminalHuman } from './terminalHuman';
import { pausingHuman, type HumanPending } from '../human/humanPause';
import { cancelOnCtrlC, reportBadInput } from './terminalStop';
import { workspaceDir } from './workspaceDir';
import { confirmTrustAtTerminal } from './terminalTrust';
import { EXIT } from './usage';
import { Recording } from '../offline/recording';

export interface SessionOptions {
  workspace: string;
  json: boolean;
  forceProfile?: string;
  /** Create the workspace's run store if it has none (run: yes; replay: there is nothing to replay). */
  createStore: boolean;
  /** `--offline <runId>`: answer every model call (and external tool) from that recorded run. */
  offline?: string;
  /** `--pause-for-humans`: a task review or tool approval pauses the run instead of asking at the terminal. */
  pauseForHumans?: boolean;
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
  const terminal = new TerminalHuman(options.json ? process.stderr : out, createStyle(colorFor(options.json ? process.stderr : out)), tree);
  const human = options.pauseForHumans ? pausingHuman : terminal;
  const controller = new AbortController();
  const detachCtrlC = cancelOnCtrlC(controller, 'the run');

  let store: SqliteRunStore | undefined;
  try {
    const workspace = workspaceDir(options.workspace);
    const settings = loadWorkspaceSettings(workspace);
    // An offline re-run sends nothing anywhere and starts no server: there is nothing to trust.
    if (options.offline === undefined) await confirmTrustAtTerminal(workspace, settings, options.json, style);
    // Bad input (an invalid document…) is found before anything is written to the workspace.
    const start = prepare();
    store = openStore(workspace, options.createStore && options.offline === undefined);
    if (!store) throw new WorkspaceInvalid(`there are no runs in ${workspace} (no ${workspaceDatabasePath(workspace)}); use --workspace`);
    const offline = options.offline === undefined ? undefined : Recording.fromStore(store, options.offline);
    const runtime = createRuntime({ workspace, store, human, settings, forceProfile: options.forceProfile, offline });
    tree.start();
    const result = await start(runtime, { signal: controller.signal, onEvent: options.json ? () => {} : (e) => tree.handle(e) });
    tree.stop();
    printResult(result, options.json, style, offline?.runId, workspaceFlag(workspace));
    // A paused flow did what it should: it waits for `crewdeck resume`. A flow that completed through
    // imported CrewAI stubs skipped some of the project's logic: exit 3 says so to scripts.
    if (result.status === 'completed' && stubsOf(result).length > 0) return EXIT.stubsReached;
    return result.status === 'completed' || result.status === 'paused' ? EXIT.ok : EXIT.runFailed;
  } catch (error) {
    tree.stop();
    if (!isBadInput(error)) throw error;
    return reportBadInput(error, options.json, style);
  } finally {
    detachCtrlC();
    terminal.close();
    store?.close();
  }
}

/**
 * ` --workspace DIR` when the workspace is not the current folder, so a hint the run prints works
 * when pasted where it was started.
 */
export function workspaceFlag(workspace: string, cwd = process.cwd()): string {
  if (resolve(workspace) === resolve(cwd)) return '';
  const shown = relative(cwd, workspace);
  // A path within one level up reads well relative; anything farther is clearer absolute.
  const dir = shown.startsWith('../..') || isAbsolute(shown) ? resolve(workspace) : shown;
  return ` --workspace ${/^[\w./-]+$/.test(dir) ? dir : `'${dir.replace(/'/g, "'\\''")}'`}`;
}

function printResult(result: CrewRunResult | FlowRunResult, json: boolean, style: ReturnType<typeof createStyle>, offlineFrom: string | undefined, at: string): void {
  const flow = 'state' in result ? result : undefined;
  if (json) {
    process.stdout.write(`${JSON.stringify(runJson(result, offlineFrom))}\n`);
    return;
  }
  if (result.status === 'completed') {
    process.stdout.write(`\n${style.bold('Output')}\n${result.output}\n\n${style.dim(`run ${result.runId}${offlineFrom ? ` (offline, from ${offlineFrom})` : ''} · ${formatUsageLine(result.tokenUsage)}`)}\n`);
    process.stdout.write(style.dim(`See it again: crewdeck runs show ${result.runId}${at}\n`));
    const stubs = stubsOf(result);
    if (stubs.length > 0) process.stdout.write(`${style.yellow(`⚠ completed with ${describeStubsReached(stubs)}`)}: their CrewAI Python did not run\n`);
  } else if (result.pending?.kind === 'budget') {
    const p = result.pending;
    const spent = p.which === 'maxTokens' ? `${p.spent} tokens of ${p.limit}` : `$${p.spent.toFixed(6)} of $${p.limit}`;
    process.stdout.write(`\n${style.bold(`Paused: the budget is reached (${spent})`)}${p.stepId ? ` before a model call in "${p.stepId}"` : ''}\n`);
    process.stdout.write(`\nContinue with a higher cap: crewdeck resume ${result.runId}${at} ${p.which === 'maxTokens' ? '--max-tokens N' : '--max-cost X'}\n`);
  } else if ('humanPending' in result && result.humanPending) {
    printHumanPending(result.runId, result.humanPending, style, at);
  } else if (flow?.pending && flow.pending.kind === undefined) {
    const p = flow.pending;
    process.stdout.write(`\n${style.bold(`Paused: "${p.methodName}" waits for your feedback`)}\n${p.message}\n`);
    if (p.output) process.stdout.write(`\n${style.dim('Under review:')}\n${p.output}\n`);
    if (p.outcomes) process.stdout.write(`\n${style.dim(`Outcomes: ${p.outcomes.join(', ')}${p.defaultOutcome ? ` (empty feedback: ${p.defaultOutcome})` : ''}`)}\n`);
    process.stdout.write(`\nAnswer with: crewdeck resume ${result.runId}${at} --feedback "…"\n`);
  } else {
    process.stdout.write(`\n${style.red(result.status === 'cancelled' ? 'Run cancelled' : 'Run failed')}: ${result.error?.message ?? ''}\n`);
    process.stdout.write(style.dim(`Events: crewdeck runs events ${result.runId}${at}\n`));
  }
}

function printHumanPending(runId: string, p: HumanPending, style: ReturnType<typeof createStyle>, at: string): void {
  if (p.kind === 'task_review') {
    process.stdout.write(`\n${style.bold(`Paused: ${p.agentRole}'s answer to task ${p.taskId ?? ''} waits for your review`)}\n${style.dim('Under review:')}\n${p.output}\n`);
    process.stdout.write(`\nAnswer with: crewdeck resume ${runId}${at} --feedback "…" (or --approve to accept it)\n`);
  } else {
    process.stdout.write(`\n${style.bold(`Paused: ${p.prompt}`)}\n${style.dim(JSON.stringify(p.args, null, 2))}\n`);
    process.stdout.write(`\nAnswer with: crewdeck resume ${runId}${at} --approve | --deny | --always\n`);
  }
}

/** What a run paused for a person waits for, as `--json` and the team API show it (its conversation stays inside). */
export function publicHumanPending(p: HumanPending): Record<string, unknown> {
  const { conversation: _conversation, spanId: _span, parentSpanId: _parent, ...shown } = p;
  return shown;
}

/** The object `run --json` prints for a run (also one row of a batch run). */
export function runJson(result: CrewRunResult | FlowRunResult, offlineFrom?: string): Record<string, unknown> {
  const flow = 'state' in result ? result : undefined;
  return {
    runId: result.runId,
    status: result.status === 'completed' || result.status === 'paused' ? result.status : 'failed',
    output: result.output,
    ...(flow ? { state: flow.state } : { tasks: (result as CrewRunResult).tasks }),
    ...(result.pending ? { pending: result.pending } : {}),
    ...('humanPending' in result && result.humanPending ? { pending: publicHumanPending(result.humanPending) } : {}),
    tokenUsage: result.tokenUsage,
    ...(result.error ? { error: result.status === 'cancelled' ? `run cancelled: ${result.error.message}` : result.error.message } : {}),
    ...(offlineFrom ? { offlineFrom } : {}),
    ...(stubsOf(result).length > 0 ? { stubsReached: stubsOf(result) } : {}),
  };
}

/** A flow run's imported CrewAI stubs that ran (none for a crew). */
function stubsOf(result: CrewRunResult | FlowRunResult): StubReached[] {
  return ('stubsReached' in result && result.stubsReached) || [];
}

