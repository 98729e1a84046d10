import type { FlowPredicate } from '../../../shared/model/flow';
import { toJs, toPredicate, UnsupportedPython } from '../flowExpression';
import { pyString, type PyStatement } from '../pythonSource';
import { DROPPED } from './dropped';
import { flush } from './flushPending';
import type { MethodContext } from './methodContext';
import { flatten, Unmappable } from './unmappable';

/** Ending the program: in a router, ending the flow. */
const EXIT = /^(?:sys\.)?(?:exit|quit)\s*\([^)]*\)$/;

/**
 * A router's if-chain starting at `body[start]`. Guards before the rest of the method become a guard
 * step and the index of the chain's last statement is returned (reading goes on after it); a chain that
 * ends the method becomes its routing step and undefined is returned.
 */
export function routerChain(ctx: MethodContext, body: PyStatement[], start: number): number | undefined {
  let i = start;
  const chain: PyStatement[] = [body[start]!];
  // `if a: return "x"` followed by `if b: return "y"` is an elif chain too (each branch returns).
  while (i + 1 < body.length && /^(elif\b|else\s*:|if\b)/.test(body[i + 1]!.text) && !chain.some((c) => /^else\b/.test(c.text))) chain.push(body[(i += 1)]!);
  const tail = body.slice(i + 1);
  if (tail.some((t) => !/^return\b/.test(t.text) && !DROPPED.test(t.text))) {
    // `if …: return "label"` guards before the rest of the router: a guard step, then the rest.
    if (chain.some((c) => /^else\b/.test(c.text))) throw new Unmappable(body[start]!, 'statements after a routing if-chain with an else');
    route(ctx, chain, undefined, ctx.continueLabel());
    return i;
  }
  const last = tail.find((t) => /^return\b/.test(t.text));
  route(ctx, chain, last);
  return undefined;
}

/**
 * An if/elif/else chain of `return "label"` (and a final return) → rules, or a script for richer tests.
 * With `guard`, the chain is a router's early guard: no test holding takes the `guard` route (the rest
 * of the method listens to it).
 */
export function route(ctx: MethodContext, chain: PyStatement[], last: PyStatement | undefined, guard?: string): void {
  const branches: { cond?: string; label: string; at: PyStatement }[] = [];
  for (const c of chain) {
    const ret = c.block.filter((b) => !DROPPED.test(b.text));
    const [only] = ret;
    const label = only !== undefined && ret.length === 1 && /^return\b/.test(only.text) ? pyString(only.text.replace(/^return\b/, '')) : undefined;
    if (label === undefined) throw new Unmappable(c, 'a routing branch that does more than return a route label');
    const cond = /^(?:if|elif)\s+([\s\S]+):$/.exec(c.text)?.[1];
    branches.push({ cond, label, at: c });
  }
  const fallback = last ? pyString(last.text.replace(/^return\b/, '')) : undefined;
  if (last && fallback === undefined) throw new Unmappable(last, 'a router returning something other than a route label');
  const elseBranch = branches.find((b) => b.cond === undefined);
  const dflt = guard ?? elseBranch?.label ?? fallback;
  const routes = [...new Set([...branches.map((b) => b.label), ...(fallback !== undefined ? [fallback] : []), ...(guard !== undefined ? [guard] : [])])];
  if (guard === undefined) ctx.routed = true;
  else {
    // Reported at the chain's first statement (the clashing branch is one of them, so there is one).
    const clash = branches.find((b) => b.label === guard);
    if (clash) throw new Unmappable(chain[0] ?? clash.at, `a guard returning "${guard}", the label its continuation takes`);
  }
  const conditional = branches.filter((b) => b.cond !== undefined);
  const predicates = conditional.map((b) => toPredicate(b.cond!, ctx.scope));
  const python = [...chain.map((c) => flatten(c)), ...(last ? [last.text] : guard !== undefined ? [`return ${JSON.stringify(guard)}`] : [])].flatMap((t) => t.split('\n'));
  const continues = guard !== undefined ? { continueRoute: guard } : {};
  // State set before the tests is its own step (set_state or script); the router after it is rules.
  if (dflt !== undefined && ctx.pending.locals.length === 0 && predicates.every((p) => p !== undefined)) {
    flush(ctx);
    ctx.push({ body: { type: 'rules', rules: conditional.map((b, j) => ({ when: predicates[j] as FlowPredicate, route: b.label })), default: dflt }, routes, ...continues }, true);
    return;
  }
  const js: string[] = [];
  for (const b of conditional) {
    try {
      js.push(`if (__truthy(${toJs(b.cond!, ctx.scope)})) return { output: input, route: ${JSON.stringify(b.label)} };`);
    } catch (error) {
      // Reported at the chain's first statement (b is one of them, so there is one).
      if (error instanceof UnsupportedPython) throw new Unmappable(chain[0] ?? b.at, `the test ${error.message} cannot be transpiled`);
      throw error;
    }
  }
  js.push(dflt !== undefined ? `return { output: input, route: ${JSON.stringify(dflt)} };` : 'return { output: input };');
  flush(ctx, { js, python });
  // flush with extra code always pushes a script step: the one the routes belong to.
  const step = ctx.out.steps.at(-1);
  if (step) Object.assign(step, { routes, ...continues });
}

/** `exit()` in a router ends the flow: a route (`<method>_exit`) that nothing listens to. */
export function withExits(ctx: MethodContext, body: PyStatement[]): PyStatement[] {
  let label: string | undefined;
  const map = (list: PyStatement[]): PyStatement[] =>
    list.map((st) => {
      if (EXIT.test(st.text)) {
        label ??= ctx.freeLabel(`${ctx.fn.name}_exit`);
        return { ...st, text: `return ${JSON.stringify(label)}` };
      }
      return st.block.length > 0 ? { ...st, block: map(st.block) } : st;
    });
  return map(body);
}
