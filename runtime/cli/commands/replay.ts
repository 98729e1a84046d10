import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseOptions } from '../options';
import { runInTerminal } from '../session';
import { UsageError } from '../usage';
import { BUDGET_OPTIONS, parseBudgetOptions } from '../budgetOptions';

export async function replayCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseOptions(args, {
    'from-task': { type: 'string' },
    'set-output': { type: 'string', multiple: true },
    model: { type: 'string' },
    workspace: { type: 'string', short: 'w' },
    json: { type: 'boolean', default: false },
    ...BUDGET_OPTIONS,
  });
  if (positionals.length !== 1) throw new UsageError('replay needs exactly one run id');
  const fromTask = values['from-task'];
  if (!fromTask) throw new UsageError('replay needs --from-task <taskId>');
  const edits = parseEdits(values['set-output'] ?? []);
  const budget = parseBudgetOptions(values);
  return runInTerminal(
    { workspace: values.workspace ?? process.cwd(), json: values.json ?? false, forceProfile: values.model, createStore: false },
    () => (runtime, run) => runtime.replay(positionals[0], fromTask, { ...run, edits, budget }),
  );
}

/** `--set-output <taskId>=<text>` or `<taskId>=@<file>` (repeatable): earlier tasks' outputs as the replay sees them. */
function parseEdits(values: string[]): Record<string, string> {
  const edits: Record<string, string> = {};
  for (const value of values) {
    const eq = value.indexOf('=');
    if (eq <= 0) throw new UsageError(`--set-output needs <taskId>=<text> or <taskId>=@<file>, got "${value}"`);
    const taskId = value.slice(0, eq);
    const text = value.slice(eq + 1);
    if (Object.prototype.hasOwnProperty.call(edits, taskId)) throw new UsageError(`--set-output sets task "${taskId}" twice`);
    if (text.startsWith('@')) {
      const file = resolve(text.slice(1));
      try {
        edits[taskId] = readFileSync(file, 'utf8');
      } catch (error) {
        throw new UsageError(`--set-output ${taskId}=@${text.slice(1)}: cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
      }
    } else edits[taskId] = text;
  }
  return edits;
}
