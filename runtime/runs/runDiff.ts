import type { RuntimeEvent } from '../../shared/events';
import type { RunDiff, RunStepDiff, RunStepSide } from '../../shared/runDiff';
import { addUsage, emptyUsage } from '../../shared/usage';
import { RunNotFound } from '../errors';
import type { RunRecord, RunStore } from '../store/types';
import { wordDiff } from './wordDiff';

/**
 * Compares two stored runs step by step (a crew's tasks, a flow's method calls): output (word diff),
 * tokens, duration and cost, tool calls added or removed, guardrail attempts; and the run totals.
 */
export function diffRuns(store: RunStore, runA: string, runB: string): RunDiff {
  const a = requireRun(store, runA);
  const b = requireRun(store, runB);
  const stepsA = runSteps(store.events(a.id), a.kind);
  const stepsB = runSteps(store.events(b.id), b.kind);
  const keys = [...stepsA.keys(), ...[...stepsB.keys()].filter((k) => !stepsA.has(k))];
  return {
    runA: describe(a),
    runB: describe(b),
    tasks: keys.map((key) => diffStep(key, stepsA.get(key), stepsB.get(key))),
    tokenUsage: { a: a.tokenUsage, b: b.tokenUsage },
    costUsd: { a: a.tokenUsage.costUsd, b: b.tokenUsage.costUsd },
    durationMs: { a: a.durationMs, b: b.durationMs },
    output: { changed: (a.output ?? '') !== (b.output ?? ''), words: wordDiff(a.output ?? '', b.output ?? '') },
  };
}

function requireRun(store: RunStore, id: string): RunRecord {
  const run = store.getRun(id);
  if (!run) throw new RunNotFound(id);
  return run;
}

function describe(run: RunRecord): RunDiff['runA'] {
  return { id: run.id, name: run.name, status: run.status, kind: run.kind };
}

/** One step of two runs side by side. */
export function diffStep(taskId: string, a: RunStepSide | undefined, b: RunStepSide | undefined): RunStepDiff {
  const ua = a?.tokenUsage ?? emptyUsage();
  const ub = b?.tokenUsage ?? emptyUsage();
  const delta: RunStepDiff['delta'] = {
    totalTokens: ub.totalTokens - ua.totalTokens,
    promptTokens: ub.promptTokens - ua.promptTokens,
    completionTokens: ub.completionTokens - ua.completionTokens,
  };
  if (a?.durationMs !== undefined && b?.durationMs !== undefined) delta.durationMs = b.durationMs - a.durationMs;
  if (ua.costUsd !== undefined && ub.costUsd !== undefined) delta.costUsd = ub.costUsd - ua.costUsd;
  const toolCalls = { added: multisetMinus(b?.toolCalls ?? [], a?.toolCalls ?? []), removed: multisetMinus(a?.toolCalls ?? [], b?.toolCalls ?? []) };
  return {
    taskId,
    // What the step did, not what it cost: its output, how it ended, its tool calls and its attempts.
    changed: !a || !b || a.output !== b.output || a.status !== b.status || a.error !== b.error || a.attempts !== b.attempts || toolCalls.added.length > 0 || toolCalls.removed.length > 0,
    ...(a ? { a } : {}),
    ...(b ? { b } : {}),
    words: wordDiff(a?.output ?? '', b?.output ?? ''),
    delta,
    toolCalls,
  };
}

/** Items of `x` not matched by an equal item of `y` (each match used once). */
function multisetMinus(x: string[], y: string[]): string[] {
  const left = new Map<string, number>();
  for (const item of y) left.set(item, (left.get(item) ?? 0) + 1);
  return x.filter((item) => {
    const n = left.get(item) ?? 0;
    if (n === 0) return true;
    left.set(item, n - 1);
    return false;
  });
}

function blankSide(): RunStepSide {
  return { status: 'unfinished', output: '', tokenUsage: emptyUsage(), toolCalls: [], attempts: 1, guardrails: [] };
}

/** A run's steps in the order they started, folded from its events (each event belongs to the step whose span holds it). */
export function runSteps(events: RuntimeEvent[], kind: 'crew' | 'flow'): Map<string, RunStepSide> {
  const steps = new Map<string, RunStepSide>();
  const stepOfSpan = new Map<string, string>();
  const open = (key: string, spanId: string): RunStepSide => {
    stepOfSpan.set(spanId, key);
    const side = steps.get(key) ?? blankSide();
    steps.set(key, side);
    return side;
  };
  for (const e of events) {
    if (kind === 'flow' && e.type === 'flow.method.started') open(e.call > 1 ? `${e.methodId}#${e.call}` : e.methodId, e.spanId);
    else if (kind === 'crew' && e.type === 'task.started') open(e.taskId, e.spanId).agentRole = e.agentRole;
    else if (kind === 'crew' && e.type === 'task.skipped') Object.assign(open(e.taskId, e.spanId), { status: 'skipped' });
    else if (!stepOfSpan.has(e.spanId) && e.parentSpanId !== undefined && stepOfSpan.has(e.parentSpanId)) stepOfSpan.set(e.spanId, stepOfSpan.get(e.parentSpanId)!);
    const key = stepOfSpan.get(e.spanId);
    const side = key === undefined ? undefined : steps.get(key);
    if (!side) continue;
    switch (e.type) {
      case 'llm.completed':
        side.tokenUsage = addUsage(side.tokenUsage, e.usage);
        break;
      case 'tool.started':
        side.toolCalls.push(`${e.tool}(${JSON.stringify(e.args ?? null)})`);
        break;
      case 'task.retrying':
        side.attempts++;
        break;
      case 'guardrail.passed':
        side.guardrails.push({ attempt: e.attempt, guardrail: e.guardrailType, passed: true });
        break;
      case 'guardrail.failed':
        side.guardrails.push({ attempt: e.attempt, guardrail: e.guardrailType, passed: false, reason: e.reason });
        break;
      case 'task.completed':
        if (kind !== 'crew' || stepOfSpan.get(e.spanId) !== e.taskId) break;
        Object.assign(side, { status: e.restoredFrom ? 'restored' : 'completed', output: e.raw, durationMs: e.durationMs, agentRole: e.agentRole });
        break;
      case 'task.failed':
        if (kind !== 'crew' || stepOfSpan.get(e.spanId) !== e.taskId) break;
        Object.assign(side, { status: 'failed', error: e.error, durationMs: e.durationMs });
        break;
      case 'flow.method.completed':
        Object.assign(side, { status: 'completed', output: e.output, durationMs: e.durationMs });
        break;
      case 'flow.method.failed':
        Object.assign(side, { status: 'failed', error: e.error, durationMs: e.durationMs });
        break;
      default:
        break;
    }
  }
  return steps;
}
