import type { FlowBody } from '../../../shared/model/flow';
import { toTemplate, type ExprScope } from '../flowExpression';
import { callArguments, pyString, splitTopLevel, type PyStatement } from '../pythonSource';
import { flush } from './flushPending';
import type { MethodContext } from './methodContext';
import { Unmappable } from './unmappable';

/** `result = SomeCrew().crew().kickoff(inputs={…})` (or `await … .kickoff_async(…)`). */
export const KICKOFF = /^(?:(\w+)\s*=\s*)?(?:await\s+)?(\w+)\s*\(\s*\)\s*\.\s*crew\s*\(\s*\)\s*\.\s*(kickoff(?:_async)?)\s*\(([\s\S]*)\)$/;

/** A crew body naming its crew by the `crew:<Class>` placeholder the importer resolves. */
export function crewBody(className: string, inputs: Record<string, string>): Extract<FlowBody, { type: 'crew' }> {
  return { type: 'crew', file: `crew:${className}`, ...(Object.keys(inputs).length > 0 ? { inputs } : {}) };
}

/** The templates of a crew's `inputs={…}` dict literal; `fail` says why an entry cannot be one. */
export function crewInputs(dict: string, scope: ExprScope, fail: (entry: string) => Unmappable): Record<string, string> {
  const inputs: Record<string, string> = {};
  for (const entry of splitTopLevel(dict.slice(1, -1))) {
    const [k, ...v] = splitTopLevel(entry, ':');
    const key = k !== undefined ? pyString(k) : undefined;
    const template = v.length > 0 ? toTemplate(v.join(':'), scope) : undefined;
    if (key === undefined || template === undefined) throw fail(entry.trim());
    inputs[key] = template;
  }
  return inputs;
}

/** A crew kickoff statement: a crew step, its result the input of the steps after it. */
export function readCrewKickoff(ctx: MethodContext, s: PyStatement, kick: RegExpExecArray): void {
  flush(ctx);
  // KICKOFF's groups 2 (class) and 4 (arguments) are not optional; group 1 (the variable) is.
  const [, variable] = kick;
  const className = kick[2]!;
  const kw = callArguments(kick[4]!).keywords;
  const raw = kw.get('inputs')?.trim();
  if (raw !== undefined && (!raw.startsWith('{') || !raw.endsWith('}'))) throw new Unmappable(s, 'crew inputs that are not a dict literal');
  const inputs = raw !== undefined ? crewInputs(raw, ctx.scope, (entry) => new Unmappable(s, `the crew input ${entry} is not a string, f-string or state value`)) : {};
  for (const key of kw.keys()) if (key !== 'inputs') throw new Unmappable(s, `kickoff(${key}=…)`);
  ctx.out.crews.push({ className, line: s.line });
  ctx.push({ body: crewBody(className, inputs) }, false);
  if (variable) ctx.scope.results.add(variable);
  ctx.scope.locals.delete(variable ?? '');
}
