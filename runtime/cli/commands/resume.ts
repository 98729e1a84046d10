import { parseOptions } from '../options';
import { runInTerminal } from '../session';
import { UsageError } from '../usage';

/** `crewdeck resume <runId> [--feedback TEXT]`: continues a paused or interrupted flow. */
export async function resumeCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseOptions(args, {
    feedback: { type: 'string' },
    model: { type: 'string' },
    workspace: { type: 'string', short: 'w' },
    json: { type: 'boolean', default: false },
  });
  if (positionals.length !== 1) throw new UsageError('resume needs exactly one run id');
  return runInTerminal(
    { workspace: values.workspace ?? process.cwd(), json: values.json ?? false, forceProfile: values.model, createStore: false },
    () => (runtime, run) => runtime.resume(positionals[0], { ...run, feedback: values.feedback }),
  );
}
