import type { BudgetLimitName } from '../shared/model/budget';
import { formatProblems, type Problem } from '../shared/model/problems';

/** A document (crew file, settings, script) failed validation. */
export class DocumentInvalid extends Error {
  override name = 'DocumentInvalid';
  constructor(
    readonly file: string,
    readonly problems: Problem[],
  ) {
    super(`${file} is not a valid document:\n${formatProblems(problems)}`);
  }
}

/** A `{placeholder}` has no input value and no default. */
export class MissingInput extends Error {
  override name = 'MissingInput';
  constructor(
    readonly input: string,
    readonly usedIn: string[],
  ) {
    super(`missing input "${input}" (used in ${usedIn.join(', ')}); pass it with --input ${input}=VALUE`);
  }
}

/** A task's guardrails kept rejecting its output after every allowed retry. */
export class GuardrailExhausted extends Error {
  override name = 'GuardrailExhausted';
  constructor(
    readonly taskId: string,
    readonly attempts: number,
    readonly lastReason: string,
  ) {
    super(`task "${taskId}" failed its guardrails after ${attempts} attempt(s): ${lastReason}`);
  }
}

/** An agent ran past its maxExecutionTimeMs. */
export class AgentTimeout extends Error {
  override name = 'AgentTimeout';
  constructor(
    readonly role: string,
    readonly limitMs: number,
  ) {
    super(`agent "${role}" exceeded its maximum execution time of ${limitMs} ms`);
  }
}

/** No task produced a non-empty output. */
export class NoCrewOutput extends Error {
  override name = 'NoCrewOutput';
  constructor() {
    super('no task produced a non-empty output, so the crew has no result');
  }
}

/** The run was cancelled by its caller. */
export class RunCancelled extends Error {
  override name = 'RunCancelled';
  constructor(reason = 'cancelled') {
    super(reason);
  }
}

/** A run asked to continue (a paused or interrupted flow) that is running or finished; of two resumes racing, one wins. */
export class RunNotReopenable extends Error {
  override name = 'RunNotReopenable';
}

export class BatchNotFound extends Error {
  override name = 'BatchNotFound';
  constructor(readonly batchId: string) {
    super(`no batch with id "${batchId}" in this workspace (see \`crewdeck batches list\`)`);
  }
}

/** A batch that cannot be resumed or cancelled now: another live process runs it, or it has ended. */
export class BatchNotResumable extends Error {
  override name = 'BatchNotResumable';
}

export class RunNotFound extends Error {
  override name = 'RunNotFound';
  constructor(readonly runId: string) {
    super(`no run with id "${runId}" in this workspace`);
  }
}

export class TaskNotFound extends Error {
  override name = 'TaskNotFound';
  constructor(
    readonly taskId: string,
    readonly known: string[],
  ) {
    super(`no task with id "${taskId}"; tasks are: ${known.join(', ')}`);
  }
}

/** A condition or guardrail could not be evaluated (bad script, etc.). */
export class ConditionFailed extends Error {
  override name = 'ConditionFailed';
}

export function errorName(error: unknown): string {
  return error instanceof Error ? error.name : 'Error';
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Replay would need the output of a task that never finished in the original run. */
export class ReplayNotPossible extends Error {
  override name = 'ReplayNotPossible';
}

/** The workspace folder does not exist or is not a folder. */
export class WorkspaceInvalid extends Error {
  override name = 'WorkspaceInvalid';
}

/** A model call was not made: the run's total reached its budget cap. The run pauses (it does not fail). */
export class BudgetReached extends Error {
  override name = 'BudgetReached';
  constructor(
    readonly which: BudgetLimitName,
    readonly spent: number,
    readonly limit: number,
    readonly stepId: string | undefined,
  ) {
    super(`the run's budget is reached: ${which === 'maxTokens' ? `${spent} tokens of ${limit}` : `$${spent.toFixed(6)} of $${limit}`}`);
  }
}
