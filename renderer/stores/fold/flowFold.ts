import type { EventOf } from '../../../shared/events';
import type { FamilyFold } from './eventFold';
import type { RunDraft } from './runDraft';
import { addStubReached } from '../../../shared/stubsReached';
import type { MethodResult } from '../runView';

/*
 * Flow runs: flow.method.* spans (kind 'method'), node status under `method:<methodId>`, `view.methods`
 * (calls per method), `view.routes` (router → chosen label), `view.triggers` (which listen condition
 * fired), `view.flowState`, `view.stubsReached` (imported CrewAI stubs that ran, one per method). The flow
 * canvas reads them through renderer/canvas/nodes/useMethodRun.ts.
 */

function methodStarted(d: RunDraft, e: EventOf<'flow.method.started'>): void {
  const v = d.v;
  const prev = v.methods[e.methodId];
  const calls = (prev?.calls ?? 0) + 1;
  // Before this method's own name is known: a route may share a listener's name.
  const from = triggerSource(d, e.triggeredBy);
  const span = d.open(e, 'method', e.methodName, calls > 1 ? `${e.bodyType} · call ${calls}` : e.bodyType);
  v.book.methodNames[e.methodName] = e.methodId;
  v.methods[e.methodId] = { methodId: e.methodId, name: e.methodName, bodyType: e.bodyType, status: 'running', calls, spanId: span.id };
  d.setMethodStatus(e.methodId, 'running');
  // A listener of a router fired by its route: remember which route, so that handle's edge lights up.
  if (from) v.triggers[e.methodId] = { from: from.from, route: from.route ?? v.routes[from.from], to: e.methodId, call: calls };
  else delete v.triggers[e.methodId];
}

/** One item of a for_each: a span of its own under the method, and the method's item counter. */
function itemEvent(d: RunDraft, e: EventOf<'flow.item.started' | 'flow.item.completed' | 'flow.item.failed' | 'flow.item.paused'>): void {
  const label = `item ${e.index + 1}/${e.total}`;
  if (e.type === 'flow.item.started') d.open(e, 'item', label, e.item);
  else if (e.type === 'flow.item.completed' && e.restoredFrom) d.open(e, 'item', label, 'restored from the checkpoint', 'done');
  else if (e.type === 'flow.item.paused') {
    const span = d.close(e, 'paused');
    if (span) span.sublabel = 'paused at the budget';
  } else d.close(e, e.type === 'flow.item.completed' ? 'done' : 'failed');
  const m = d.v.methods[e.methodId];
  if (!m) return;
  const items = m.items && m.items.total === e.total ? { ...m.items } : { total: e.total, done: 0, failed: 0 };
  if (e.type === 'flow.item.completed') items.done += 1;
  else if (e.type === 'flow.item.failed') items.failed += 1;
  d.v.methods[e.methodId] = { ...m, items };
}

/** The method (or router and route) a listener's `triggeredBy` names. */
function triggerSource(d: RunDraft, triggeredBy: string | undefined): { from: string; route?: string } | undefined {
  if (!triggeredBy) return undefined;
  const byName = d.v.book.methodNames[triggeredBy];
  if (byName) return { from: byName };
  if (d.v.methods[triggeredBy]) return { from: triggeredBy };
  const route = /^route[:\s]+(.+)$/.exec(triggeredBy)?.[1] ?? triggeredBy;
  for (const [router, label] of Object.entries(d.v.routes)) if (label === route) return { from: router, route };
  return undefined;
}

function methodRouted(d: RunDraft, e: EventOf<'flow.route'>): void {
  const span = d.record(e);
  if (span) span.sublabel = `${span.sublabel ?? ''} → ${e.route}`;
  d.v.routes[e.methodId] = e.route;
  const m = d.v.methods[e.methodId];
  if (m) d.v.methods[e.methodId] = { ...m, route: e.route };
}

function methodEnded(d: RunDraft, e: EventOf<'flow.method.completed' | 'flow.method.failed'>): void {
  const v = d.v;
  if (!d.spans.has(e.spanId)) d.open(e, 'method', e.methodName);
  const done = e.type === 'flow.method.completed';
  const span = d.close(e, done ? 'done' : 'failed');
  // Wall-clock on the trace: a feedback method's own durationMs leaves out the time it was paused.
  if (span?.end !== undefined) span.durationMs = Math.max(span.end - span.start, e.durationMs);
  // A fork replays the methods before its fork point from the recorded run: no body ran.
  if (span && done && e.restoredFrom) span.sublabel = `${span.sublabel ? `${span.sublabel} · ` : ''}restored`;
  const prev: MethodResult = v.methods[e.methodId] ?? { methodId: e.methodId, name: e.methodName, bodyType: '', status: 'running', calls: 1, spanId: e.spanId };
  if (done) {
    v.methods[e.methodId] = { ...prev, status: 'done', output: e.output, route: e.route ?? prev.route, durationMs: e.durationMs, error: undefined };
    if (e.route) v.routes[e.methodId] = e.route;
    v.flowState = e.state;
  } else {
    v.methods[e.methodId] = { ...prev, status: 'failed', error: e.error, durationMs: e.durationMs };
  }
  d.setMethodStatus(e.methodId, done ? 'done' : 'failed');
}

/** Stopped at the run's budget: not a failure, the method runs again when the run resumes. */
function methodPaused(d: RunDraft, e: EventOf<'flow.method.paused'>): void {
  if (!d.spans.has(e.spanId)) d.open(e, 'method', e.methodName);
  const span = d.close(e, 'paused');
  if (span) span.sublabel = `${span.sublabel ? `${span.sublabel} · ` : ''}paused at the budget`;
  const prev: MethodResult = d.v.methods[e.methodId] ?? { methodId: e.methodId, name: e.methodName, bodyType: '', status: 'running', calls: 1, spanId: e.spanId };
  d.v.methods[e.methodId] = { ...prev, status: 'paused', error: undefined, durationMs: e.durationMs };
  d.setMethodStatus(e.methodId, 'paused');
}

/** An imported CrewAI method that could not be mapped passed its input on: the method's row and the run's list of stubs say so. */
function stubReached(d: RunDraft, e: EventOf<'flow.stub.reached'>): void {
  const span = d.record(e);
  if (span) span.sublabel = `stub for CrewAI Python (${e.file}:${e.line}): passed its input on`;
  d.v.stubsReached = addStubReached(d.v.stubsReached, e);
}

export const FLOW_FOLD = {
  'flow.method.started': methodStarted,
  'flow.route': methodRouted,
  'flow.method.completed': methodEnded,
  'flow.method.failed': methodEnded,
  'flow.method.paused': methodPaused,
  'flow.item.started': itemEvent,
  'flow.item.completed': itemEvent,
  'flow.item.failed': itemEvent,
  'flow.item.paused': itemEvent,
  'flow.stub.reached': stubReached,
} satisfies FamilyFold<'flow'>;
