import { runScript } from '../../script/sandbox';
import { diffStateOps } from '../stateOps';
import type { BodyRunner } from './types';

const FLOW_SCRIPT_TIMEOUT_MS = 2000;

/**
 * User JavaScript in the QuickJS sandbox with `state` (a copy it may change) and `input`. It returns
 * the output, or `{ output, route }`; changes made to `state` are kept, applied as operations (an
 * integer's change as an increment, a list that grew as an append) to the live state.
 */
export const runFlowScript: BodyRunner<'script'> = async (body, scope) => {
  // One line of wrapper before the user's code keeps its line numbers; the user's `return` ends the inner
  // function. A returned promise is settled first (one that never settles is the sandbox's timeout).
  // The script runs on the sandbox's worker thread (the event loop goes on) for up to its timeout: what
  // the run emitted so far is stored first, so it survives the process being killed meanwhile.
  scope.span.log.flush();
  if (body.stub) {
    const { python, file, line } = body.stub;
    scope.span.emit({
      type: 'flow.stub.reached',
      methodId: scope.method.id,
      methodName: scope.method.name,
      python,
      file,
      line,
      message: `${scope.method.name} stands for CrewAI Python that was not imported (${file}:${line}); it passed its input on unchanged`,
    });
  }
  const code = `const __value = (function () {${body.code}\n})(); return Promise.resolve(__value).then((value) => ({ value, state }));`;
  // The state as it is now; what the script changes in its copy is applied as operations (stateOps.ts)
  // to the live state when it returns, so a method that changed the state meanwhile keeps its changes.
  const before = scope.state as Record<string, unknown>;
  const result = (await runScript(code, { state: structuredClone(before), input: scope.input ?? null }, { timeoutMs: body.timeoutMs ?? FLOW_SCRIPT_TIMEOUT_MS })) as {
    value: unknown;
    state: unknown;
  };
  const value = result.value;
  const structured = value !== null && typeof value === 'object' && !Array.isArray(value) && ('output' in value || 'route' in value);
  const output = structured ? (value as { output?: unknown }).output : value;
  const route = structured ? (value as { route?: unknown }).route : undefined;
  const after = result.state;
  // A script that replaced `state` with something other than an object changed nothing (as before).
  const ops = after !== null && typeof after === 'object' && !Array.isArray(after) ? diffStateOps(before, after as Record<string, unknown>) : [];
  return {
    kind: 'done',
    output: output === undefined || output === null ? '' : typeof output === 'string' ? output : JSON.stringify(output),
    json: typeof output === 'object' && output !== null ? output : undefined,
    route: route === undefined || route === null ? undefined : String(route),
    routeReason: route === undefined || route === null ? undefined : 'the script returned it',
    ops,
  };
};
