import { toJs, toRef, UnsupportedPython } from '../flowExpression';
import { pyString, type PyStatement } from '../pythonSource';
import { flush } from './flushPending';
import type { MethodContext } from './methodContext';
import { route } from './routing';
import { Unmappable } from './unmappable';

/** A `return`: a router's route label, or the value the method gives its listeners (a script when computed). */
export function returned(ctx: MethodContext, s: PyStatement): void {
  const value = s.text.replace(/^return\b/, '').trim();
  const bare = value.replace(/^(?:str|list)\((\w+)\)$/, '$1');
  const bareLocal = ctx.scope.locals.get(bare);
  if (ctx.gathered.has(bare) || (bareLocal !== undefined && ctx.gathered.has(bareLocal))) return flush(ctx);
  if (ctx.isRouter) {
    const label = pyString(value);
    if (label === undefined) throw new Unmappable(s, 'a router returning something other than a route label');
    route(ctx, [], s);
    return;
  }
  if (value === '' || value === 'None') return flush(ctx);
  const e = ctx.normalized(value);
  const ref = toRef(e, ctx.scope);
  if (ref === 'input' || (ctx.current !== undefined && e === ctx.current) || ctx.gathered.has(e)) return flush(ctx);
  let js: string;
  try {
    js = toJs(e, ctx.scope);
  } catch (error) {
    if (error instanceof UnsupportedPython) throw new Unmappable(s, `the value returned (${value}): ${error.message} cannot be transpiled`);
    throw error;
  }
  ctx.dropSubstituted();
  ctx.pending.python.push(`output = ${e}`);
  flush(ctx, { js: [`return ${js};`], python: [] });
  ctx.current = e;
}
