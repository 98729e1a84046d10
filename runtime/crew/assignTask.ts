import type { CrewDocument, Task } from '../../shared/model/crew';
import type { ModelRef } from '../../shared/model/modelRef';
import type { RunContext } from '../agent/runContext';
import type { ModelResolver } from '../llm/resolveModel';
import type { ToolUse } from '../tools/policyGate';
import { delegationTools } from './delegationTools';
import type { Roster } from './roster';
import type { TaskAssignment } from './taskRunner';

/** What the crew has ready for its tasks once the run is open. */
export interface CrewSetup {
  ctx: RunContext;
  /** The interpolated (and planned) document. */
  doc: CrewDocument;
  roster: Roster;
  /** Tools of tasks that override their agent's. */
  taskTools: Map<string, ToolUse[]>;
  models: ModelResolver;
}

/** Who performs a task and with which tools (SPEC §3: manager in hierarchical crews, delegation tools). */
export function assignTask(crew: CrewSetup, task: Task, index: number, context: string): TaskAssignment {
  const { ctx, doc, roster, taskTools, models } = crew;
  const assigned = task.agentId ? roster.byId.get(task.agentId) : undefined;
  const hierarchical = doc.process === 'hierarchical';
  const performer = hierarchical ? roster.manager! : assigned!;
  const override = taskTools.get(task.id);
  const ownTools = override ? [...override, ...(performer.skillTools ?? [])] : performer.tools;
  let recipients: typeof roster.workers = [];
  if (hierarchical) {
    const delegateTo = doc.manager?.delegateTo ?? 'assigned';
    recipients = assigned && delegateTo === 'assigned' ? [assigned] : roster.workers;
  } else if (performer.agent.allowDelegation) {
    recipients = roster.workers.filter((w) => w !== performer);
  }
  return {
    task,
    index,
    performer,
    context,
    tools: [...ownTools, ...delegationTools({ ctx, taskId: task.id, delegator: performer, recipients, everyone: roster.workers })],
    // Judges follow the model rule of SPEC §9: their own `llm`, else the workspace default.
    judge: (ref: ModelRef | undefined) => models.resolve(ref),
  };
}
