import type { TaskOutputRecord } from '../../shared/events';
import type { TokenUsage } from '../../shared/usage';
import { NoCrewOutput } from '../errors';
import type { CompletedTask } from './taskRunner';

export interface CrewOutput {
  /** The last task output whose raw text is non-empty. */
  raw: string;
  json?: unknown;
  tasks: TaskOutputRecord[];
  /** Every model call of the run. */
  tokenUsage: TokenUsage;
  /** Calls made for a task: its agent, delegated coworkers, guardrail judges, summaries. */
  usageByTask: Record<string, TokenUsage>;
  /** Calls made by or for each agent (a judge counts for the agent it judged). Planning is in neither. */
  usageByAgent: Record<string, TokenUsage>;
}

export function crewOutput(
  outputs: (CompletedTask | undefined)[],
  usage: { total: TokenUsage; byTask: Map<string, TokenUsage>; byAgent: Map<string, TokenUsage> },
): CrewOutput {
  const done = outputs.filter((o): o is CompletedTask => o !== undefined);
  const last = [...done].reverse().find((o) => !o.skipped && o.raw.trim() !== '');
  if (!last) throw new NoCrewOutput();
  return {
    raw: last.raw,
    json: last.json,
    tasks: done.map(toRecord),
    tokenUsage: usage.total,
    usageByTask: Object.fromEntries(usage.byTask),
    usageByAgent: Object.fromEntries(usage.byAgent),
  };
}

export function toRecord(o: CompletedTask): TaskOutputRecord {
  const record: TaskOutputRecord = { taskId: o.taskId, agentRole: o.agentRole, raw: o.raw };
  if (o.json !== undefined) record.json = o.json;
  if (o.skipped) record.skipped = true;
  return record;
}
