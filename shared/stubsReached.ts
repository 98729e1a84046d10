import type { EventPayloads, RuntimeEvent, StubReached } from './events';

/**
 * The stubs a flow run reached (SPEC §12.12: an imported Flow that reaches code it could not translate
 * says so in its result): one entry per method, in the order they were first reached. The run's result,
 * `run.completed`, the run store's record and the app's run view all list them this way.
 */

/** `stubs` with the one of `reached` added, unless its method is already listed. */
export function addStubReached(stubs: readonly StubReached[], reached: EventPayloads['flow.stub.reached']): StubReached[] {
  if (stubs.some((s) => s.methodId === reached.methodId)) return stubs as StubReached[];
  const { methodId, methodName, file, line, python } = reached;
  return [...stubs, { methodId, methodName, file, line, python }];
}

/** The stubs reached in a run's events (its `flow.stub.reached`), one per method. */
export function stubsReachedIn(events: Iterable<RuntimeEvent>): StubReached[] {
  let stubs: StubReached[] = [];
  for (const e of events) if (e.type === 'flow.stub.reached') stubs = addStubReached(stubs, e);
  return stubs;
}

/** "2 stubs reached: fetch_leads (main.py:42), notify (main.py:80)". */
export function describeStubsReached(stubs: readonly StubReached[]): string {
  return `${stubCount(stubs.length)} reached: ${stubs.map((s) => `${s.methodName} (${s.file}:${s.line})`).join(', ')}`;
}

/** "1 stub", "3 stubs". */
export function stubCount(n: number): string {
  return `${n} stub${n === 1 ? '' : 's'}`;
}

/** The first statement of a stub's Python (the `def` line and decorators say nothing new), or "". */
export function stubStatement(python: string): string {
  return python.split('\n').map((l) => l.trim()).filter((l) => l !== '' && !/^(?:async\s+)?def\b|^@/.test(l))[0] ?? '';
}
