import type { CrewDocument, Task } from '../../shared/model/crew';
import type { RunContext } from '../agent/runContext';
import type { Span } from '../events/span';
import { emptyUsage } from '../../shared/usage';
import type { StoredTaskOutput } from '../store/types';
import { describeCondition, evaluateCondition } from './condition';
import type { CompletedTask, TaskAssignment } from './taskRunner';
import { runTask } from './taskRunner';

export const CONTEXT_DIVIDER = '\n\n----------\n\n';

export interface ScheduleOptions {
  doc: CrewDocument;
  /** Builds the assignment (performer, tools, judge) for a task, given its context text. */
  assign: (task: Task, index: number, context: string) => TaskAssignment;
  /** Replay: outputs of tasks before `fromIndex` are restored, not re-run. */
  restored?: { fromRunId: string; fromIndex: number; outputs: Map<string, StoredTaskOutput> };
  /** Called once per finished task (completed, skipped or restored), in completion order. */
  onOutput: (index: number, output: CompletedTask) => void;
  /** Stops the run's remaining work after a task failed (the run's abort). */
  abort: (reason: unknown) => void;
}

/**
 * Runs the task list in order (both processes: in a hierarchical crew the manager is the performer).
 * Async tasks start and the scheduler moves on; a synchronous task first waits for the pending async
 * tasks it may depend on. Conditions read the output of the latest earlier task that was not skipped.
 */
export async function runTaskList(ctx: RunContext, span: Span, options: ScheduleOptions): Promise<(CompletedTask | undefined)[]> {
  const { doc } = options;
  const outputs: (CompletedTask | undefined)[] = doc.tasks.map(() => undefined);
  const pending = new Map<string, Promise<CompletedTask>>();
  const failures: unknown[] = [];

  const finish = (index: number, output: CompletedTask) => {
    outputs[index] = output;
    options.onOutput(index, output);
  };
  const waitFor = async (ids: Iterable<string>) => {
    for (const id of ids) {
      const p = pending.get(id);
      if (p) await p;
    }
  };

  try {
    await runInOrder();
  } catch (error) {
    failures.push(error);
  }
  if (failures.length > 0) {
    // Stop what is still running and let it close its spans before the run reports its end.
    options.abort(failures[0]);
  }
  await Promise.allSettled([...pending.values()]);
  if (failures.length > 0) throw failures[0];
  return outputs;

  async function runInOrder(): Promise<void> {
    for (let index = 0; index < doc.tasks.length; index++) {
      const task = doc.tasks[index]!;
      if (failures.length > 0) break;

      const restored = options.restored;
      if (restored && index < restored.fromIndex) {
        finish(index, restoreOutput(span, task, index, restored, restored.fromRunId === ctx.runId));
        continue;
      }

      if (task.condition) {
        // The previous task that ran: a skipped task has no output for a condition to read.
        await waitFor(doc.tasks.slice(0, index).map((t) => t.id));
        const previousRaw = outputs.slice(0, index).reverse().find((o) => o && !o.skipped)?.raw ?? '';
        // A condition script holds the event loop until it ends: what the run emitted so far is stored first.
        if (task.condition.type === 'script') span.log.flush();
        if (!(await evaluateCondition(task.condition, previousRaw))) {
          span.child().emit({ type: 'task.skipped', taskId: task.id, index, reason: `condition not met: ${describeCondition(task.condition)}` });
          finish(index, { taskId: task.id, agentRole: '', raw: '', skipped: true, tokenUsage: emptyUsage() });
          continue;
        }
      }

      const contextIds = contextTaskIds(doc.tasks, index, task, outputs);
      if (!task.async) await waitFor(task.context === undefined ? [...pending.keys()] : contextIds);
      else await waitFor(contextIds.filter((id) => task.context !== undefined && pending.has(id)));
      const context = contextText(doc.tasks, outputs, contextIds);
      const assignment = options.assign(task, index, context);

      if (task.async) {
        const promise = runTask(ctx, span, assignment).then((out) => {
          finish(index, out);
          pending.delete(task.id);
          return out;
        });
        promise.catch((error) => {
          failures.push(error);
          options.abort(error);
        });
        pending.set(task.id, promise);
      } else {
        finish(index, await runTask(ctx, span, assignment));
      }
    }
  }
}

/**
 * Omitted: every earlier task, except for an async task, which gets only the last synchronous task's
 * output (CrewAI's rule: async tasks run beside the tasks around them). A list: those tasks. "none": nothing.
 */
function contextTaskIds(tasks: Task[], index: number, task: Task, outputs: (CompletedTask | undefined)[]): string[] {
  if (task.context === 'none') return [];
  if (task.context === undefined && task.async) {
    for (let i = index - 1; i >= 0; i -= 1) {
      const out = outputs[i];
      const earlier = tasks[i];
      if (earlier !== undefined && !earlier.async && out !== undefined && !out.skipped) return [earlier.id];
    }
    return [];
  }
  if (task.context === undefined) return tasks.slice(0, index).map((t) => t.id);
  return task.context;
}

/** Raw outputs of the context tasks that have completed (skipped and empty ones add nothing). */
function contextText(tasks: Task[], outputs: (CompletedTask | undefined)[], ids: string[]): string {
  return ids
    .map((id) => outputs[tasks.findIndex((t) => t.id === id)])
    .filter((o): o is CompletedTask => o !== undefined && !o.skipped && o.raw.trim() !== '')
    .map((o) => o.raw)
    .join(CONTEXT_DIVIDER);
}

/** `sameRun`: a resumed run's own earlier tasks, whose events are already in its log (none again). */
function restoreOutput(span: Span, task: Task, index: number, restored: NonNullable<ScheduleOptions['restored']>, sameRun: boolean): CompletedTask {
  // Replay checks up front that every earlier task finished in the original run.
  const stored = restored.outputs.get(task.id)!;
  if (sameRun) return { taskId: task.id, agentRole: stored.agentRole, raw: stored.skipped ? '' : stored.raw, json: stored.json, skipped: stored.skipped || undefined, tokenUsage: stored.tokenUsage ?? emptyUsage() };
  if (stored.skipped) {
    span.child().emit({ type: 'task.skipped', taskId: task.id, index, reason: `skipped in run ${restored.fromRunId}` });
    return { taskId: task.id, agentRole: stored.agentRole, raw: '', skipped: true, tokenUsage: emptyUsage() };
  }
  span.child().emit({
    type: 'task.completed',
    taskId: task.id,
    agentRole: stored.agentRole,
    raw: stored.raw,
    json: stored.json,
    tokenUsage: emptyUsage(),
    durationMs: 0,
    restoredFrom: restored.fromRunId,
  });
  return { taskId: task.id, agentRole: stored.agentRole, raw: stored.raw, json: stored.json, tokenUsage: emptyUsage() };
}
