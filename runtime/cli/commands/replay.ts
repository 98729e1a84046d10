import { parseOptions } from '../options';
import { runInTerminal } from '../session';
import { UsageError } from '../usage';

export async function replayCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseOptions(args, {
    'from-task': { type: 'string' },
    model: { type: 'string' },
    workspace: { type: 'string', short: 'w' },
    json: { type: 'boolean', default: false },
  });
  if (positionals.length !== 1) throw new UsageError('replay needs exactly one run id');
  const fromTask = values['from-task'];
  if (!fromTask) throw new UsageError('replay needs --from-task <taskId>');
  return runInTerminal(
    { workspace: values.workspace ?? process.cwd(), json: values.json ?? false, forceProfile: values.model, createStore: false },
    () => (runtime, run) => runtime.replay(positionals[0], fromTask, run),
  );
}
