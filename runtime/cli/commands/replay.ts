import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseOptions } from '../options';
import { runInTerminal } from '../session';
import { UsageError } from '../usage';
import { BUDGET_OPTIONS, parseBudgetOptions } from '../budgetOptions';

/**
 * `crewdeck replay <runId> --from-task <taskId> [--set-output <taskId>=<text|@file>]...` (a crew) or
 * `--from-method <id> [--set-state key=value]...` (a flow): a new run from that step, earlier steps
 * taken from the recorded run. `--offline <runId>` answers its model calls from that run's recording.
 */
export async function replayCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseOptions(args, {
    'from-task': { type: 'string' },
    'set-output': { type: 'string', multiple: true },
    'from-method': { type: 'string' },
    'set-state': { type: 'string', multiple: true },
    offline: { type: 'string' },
    model: { type: 'string' },
    workspace: { type: 'string', short: 'w' },
    json: { type: 'boolean', default: false },
    ...BUDGET_OPTIONS,
  });
  const [runId] = positionals;
  if (runId === undefined || positionals.length !== 1) throw new UsageError('replay needs exactly one run id');
  const fromTask = values['from-task'];
  const fromMethod = values['from-method'];
  if (fromTask && fromMethod) throw new UsageError('replay takes --from-task (a crew run) or --from-method (a flow run), not both');
  if (!fromTask && !fromMethod) throw new UsageError('replay needs --from-task <taskId> (a crew run) or --from-method <methodId> (a flow run)');
  if (fromTask && values['set-state']?.length) throw new UsageError('--set-state edits a flow\'s state; a crew run is replayed with --from-task and --set-output');
  if (fromMethod && values['set-output']?.length) throw new UsageError('--set-output edits a crew task\'s output; a flow run is replayed with --from-method and --set-state');
  const budget = parseBudgetOptions(values);
  const session = { workspace: values.workspace ?? process.cwd(), json: values.json ?? false, forceProfile: values.model, createStore: false, offline: values.offline };
  if (fromMethod) {
    const state = parseStateEdits(values['set-state'] ?? []);
    return runInTerminal(session, () => (runtime, run) => runtime.replayFlow(runId, fromMethod, { ...run, state, budget }));
  }
  const edits = parseEdits(values['set-output'] ?? []);
  return runInTerminal(session, () => (runtime, run) => runtime.replay(runId, fromTask!, { ...run, edits, budget }));
}

/** `<key>=<text>` or `<key>=@<file>`: the key and the text (a file's content). */
function splitAssignment(flag: string, what: string, value: string): [string, string] {
  const eq = value.indexOf('=');
  if (eq <= 0) throw new UsageError(`${flag} needs <${what}>=<value> or <${what}>=@<file>, got "${value}"`);
  const key = value.slice(0, eq);
  const text = value.slice(eq + 1);
  if (!text.startsWith('@')) return [key, text];
  const file = resolve(text.slice(1));
  try {
    return [key, readFileSync(file, 'utf8')];
  } catch (error) {
    throw new UsageError(`${flag} ${key}=@${text.slice(1)}: cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

/** `--set-output <taskId>=<text>` or `<taskId>=@<file>` (repeatable): earlier tasks' outputs as the replay sees them. */
function parseEdits(values: string[]): Record<string, string> {
  const edits: Record<string, string> = {};
  for (const value of values) {
    const [taskId, text] = splitAssignment('--set-output', 'taskId', value);
    if (Object.prototype.hasOwnProperty.call(edits, taskId)) throw new UsageError(`--set-output sets task "${taskId}" twice`);
    edits[taskId] = text;
  }
  return edits;
}

/**
 * `--set-state <key>=<value>` or `<key>=@<file>` (repeatable): state fields at the fork method. A value
 * that parses as JSON is that JSON (`count=3`, `tags=["a"]`, `ok=true`); anything else is the text itself.
 */
function parseStateEdits(values: string[]): Record<string, unknown> {
  const edits: Record<string, unknown> = {};
  for (const value of values) {
    const [key, text] = splitAssignment('--set-state', 'key', value);
    if (Object.prototype.hasOwnProperty.call(edits, key)) throw new UsageError(`--set-state sets "${key}" twice`);
    edits[key] = jsonOrText(text);
  }
  return edits;
}

function jsonOrText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
