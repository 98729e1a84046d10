import { parseOptions } from '../options';
import { wantsServer } from '../team/teamCliClient';
import { runInTerminal } from '../session';
import { UsageError } from '../usage';
import { BUDGET_OPTIONS, parseBudgetOptions } from '../budgetOptions';

/**
 * `crewdeck resume <runId> [--feedback TEXT] [--max-tokens N] [--max-cost X] [--offline RUNID]`: continues
 * a paused or interrupted flow, an interrupted crew, or a crew or flow paused at its budget (under the
 * higher cap). `--offline` answers the model calls of this session from that recorded run.
 */
export async function resumeCommand(args: string[]): Promise<number> {
  // The team server (`--server URL`): runtime/cli/team/.
  if (wantsServer(args)) return (await import('../team/remoteRun')).remoteResumeCommand(args);
  const { values, positionals } = parseOptions(args, {
    feedback: { type: 'string' },
    approve: { type: 'boolean', default: false },
    deny: { type: 'boolean', default: false },
    always: { type: 'boolean', default: false },
    'pause-for-humans': { type: 'boolean', default: false },
    offline: { type: 'string' },
    model: { type: 'string' },
    workspace: { type: 'string', short: 'w' },
    json: { type: 'boolean', default: false },
    ...BUDGET_OPTIONS,
  });
  const [runId] = positionals;
  if (runId === undefined || positionals.length !== 1) throw new UsageError('resume needs exactly one run id');
  const budget = parseBudgetOptions(values);
  const decisions = (['approve', 'deny', 'always'] as const).filter((d) => values[d]);
  if (decisions.length > 1) throw new UsageError(`give one of --approve, --deny or --always, not ${decisions.map((d) => `--${d}`).join(' and ')}`);
  // A task review: --approve accepts the answer (as empty feedback does); a tool approval takes the decision.
  const decision = decisions[0];
  if (decision && values.feedback !== undefined) throw new UsageError(`give --feedback or --${decision}, not both`);
  return runInTerminal(
    { workspace: values.workspace ?? process.cwd(), json: values.json ?? false, forceProfile: values.model, createStore: false, offline: values.offline, pauseForHumans: values['pause-for-humans'] },
    () => (runtime, run) => runtime.resume(runId, { ...run, feedback: values.feedback, ...(decision ? { decision } : {}), budget }),
  );
}
