import type { ExprScope } from '../flowExpression';
import { callArguments, splitTopLevel, type PyStatement } from '../pythonSource';
import { crewBody, crewInputs, KICKOFF } from './crewKickoff';
import { DROPPED } from './dropped';
import { flush } from './flushPending';
import { loopTarget, stateList } from './loopTarget';
import type { MethodContext } from './methodContext';
import { Unmappable } from './unmappable';

const GATHER = /^(?:(self\.state\.(\w+)|\w+)\s*=\s*)?await\s+asyncio\.gather\s*\(\s*\*\s*([\s\S]+?)\s*\)$/;

/** The nested `async def` that kicks off a crew for one item. */
interface FanOutHelper {
  name: string;
  params: string[];
  at: PyStatement;
}

/** A crew kickoff's class and argument text. */
interface Kickoff {
  className: string;
  args: string;
  line: number;
}

/** What the statements before the gather set up. */
interface FanOutSetup {
  concurrency: number | undefined;
  helper: FanOutHelper | undefined;
  /** A task list comprehension assigned to a local the gather spreads. */
  listExpr: string | undefined;
  /** The gather's index in the body (-1 when there is none). */
  gatherAt: number;
}

/** The gather's comprehension read: the call made for each item and the state list it runs over. */
interface Gather {
  call: string;
  item: string;
  index: string | undefined;
  items: string;
  /** The state field the gather assigns (`self.state.x = await asyncio.gather(…)`). */
  into: string | undefined;
  /** The local the gather's results are bound to, when not a state field. */
  resultName: string | undefined;
}

/**
 * A fan-out: an optional `asyncio.Semaphore(n)`, a nested `async def` helper that kicks off a crew
 * for one item, and `asyncio.gather` over the helper (or the kickoff) for each item of a state list,
 * its results assigned to a state field. Returns the index of the last statement used.
 */
export function fanOut(ctx: MethodContext, body: PyStatement[], start: number, first: PyStatement): number {
  flush(ctx);
  const { concurrency, helper, listExpr, gatherAt } = fanOutSetup(ctx, body, start);
  const g = body[gatherAt];
  if (!g) throw new Unmappable(first, 'an async helper with no asyncio.gather over it');
  const gather = readGather(ctx, g, listExpr);
  const { inner, itemScope } = itemKickoff(g, gather, helper);
  const raw = callArguments(inner.args).keywords.get('inputs')?.trim();
  if (raw !== undefined && !raw.startsWith('{')) throw new Unmappable(g, 'crew inputs that are not a dict literal');
  const inputs = raw !== undefined ? crewInputs(raw, itemScope, (entry) => new Unmappable(helper?.at ?? g, `the crew input ${entry} is not a string, f-string, item or state value`)) : {};
  const { into, last } = resultsTarget(ctx, body, gatherAt, gather);
  const field = into ?? `${ctx.fn.name}_results`;
  ctx.out.crews.push({ className: inner.className, line: inner.line });
  ctx.push({ body: { type: 'for_each', items: gather.items, body: crewBody(inner.className, inputs), concurrency: concurrency ?? 4, into: field } }, false);
  if (gather.resultName) ctx.scope.locals.set(gather.resultName, `self.state.${field}`);
  return last;
}

/** The semaphore, the helper and a task list before the gather, up to the gather itself. */
function fanOutSetup(ctx: MethodContext, body: PyStatement[], start: number): FanOutSetup {
  let concurrency: number | undefined;
  let helper: FanOutHelper | undefined;
  let listExpr: string | undefined;
  for (let i = start; i < body.length; i += 1) {
    const s = body[i]!;
    const sem = /^(\w+)\s*=\s*asyncio\.(?:Semaphore|BoundedSemaphore)\(\s*(\d+)\s*\)$/.exec(s.text);
    if (sem) {
      concurrency = Number(sem[2]);
      continue;
    }
    const def = /^async\s+def\s+(\w+)\s*\(([^)]*)\)\s*(?:->[^:]+)?:$/.exec(s.text);
    if (def) {
      helper = { name: def[1]!, params: splitTopLevel(def[2]!).map((p) => /^\w+/.exec(p)![0]), at: s };
      continue;
    }
    const tasks = /^(\w+)\s*=\s*(\[[\s\S]*\])$/.exec(s.text);
    if (tasks && /\bfor\b/.test(tasks[2]!)) {
      listExpr = tasks[2];
      ctx.scope.locals.set(tasks[1]!, `__tasks__`);
      continue;
    }
    if (/asyncio\.gather\s*\(/.test(s.text)) return { concurrency, helper, listExpr, gatherAt: i };
    throw new Unmappable(s, 'a statement between a fan-out helper and its asyncio.gather');
  }
  return { concurrency, helper, listExpr, gatherAt: -1 };
}

/** `await asyncio.gather(*[… for x in self.state.items])` (or over a task list assigned before it). */
function readGather(ctx: MethodContext, g: PyStatement, listExpr: string | undefined): Gather {
  const gm = GATHER.exec(g.text);
  if (!gm) throw new Unmappable(g, 'an asyncio.gather other than `await asyncio.gather(*[… for x in self.state.items])`');
  const spread = gm[3]!;
  const comprehension = /^\[[\s\S]*\]$/.test(spread) ? spread : ctx.scope.locals.get(spread) === '__tasks__' ? listExpr : undefined;
  const comp = comprehension ? /^\[\s*([\s\S]+?)\s+for\s+(\w+(?:\s*,\s*\w+)?)\s+in\s+([\s\S]+?)\s*\]$/.exec(comprehension) : null;
  if (!comp) throw new Unmappable(g, 'an asyncio.gather over something other than a list comprehension');
  const { item, index, list } = loopTarget(comp[2]!, comp[3]!, g, 'a loop over pairs');
  const items = stateList(list, ctx.scope);
  if (items === undefined) throw new Unmappable(g, `the list ${list} is not a state list`);
  const call = comp[1]!.trim().replace(/^asyncio\.(?:create_task|ensure_future)\(([\s\S]*)\)$/, '$1').trim();
  return { call, item, index, items, into: gm[2], resultName: gm[1] && !gm[2] ? gm[1] : undefined };
}

/** The crew kicked off for each item (directly, or in the helper) and the scope its inputs are read in. */
function itemKickoff(g: PyStatement, gather: Gather, helper: FanOutHelper | undefined): { inner: Kickoff; itemScope: ExprScope } {
  const { call, item, index } = gather;
  const direct = KICKOFF.exec(call);
  if (direct) return { inner: { className: direct[2]!, args: direct[4]!, line: g.line }, itemScope: { input: new Set(), results: new Set(), locals: new Map(), item, index } };
  const hc = /^(\w+)\s*\(([\s\S]*)\)$/.exec(call);
  if (!hc || !helper || hc[1] !== helper.name) throw new Unmappable(g, `${call} is neither a crew kickoff nor the async helper`);
  // The helper's parameters are the loop's variables.
  const args = splitTopLevel(hc[2]!);
  const names = new Map<string, string>();
  helper.params.forEach((p, j) => names.set(p, args[j]?.trim() ?? ''));
  const helperScope: ExprScope = { input: new Set(), results: new Set(), locals: new Map(), item: undefined, index: undefined };
  for (const [p, arg] of names) {
    if (arg === item) helperScope.item = p;
    else if (arg === index) helperScope.index = p;
    else if (arg !== '') helperScope.locals.set(p, arg);
  }
  return { inner: helperKickoff(helper.at), itemScope: helperScope };
}

/** The state field the results go to (maybe set by the statement after the gather) and the last statement used. */
function resultsTarget(ctx: MethodContext, body: PyStatement[], gatherAt: number, gather: Gather): { into: string | undefined; last: number } {
  const { resultName } = gather;
  if (!resultName) return { into: gather.into, last: gatherAt };
  ctx.gathered.add(resultName);
  const next = body[gatherAt + 1];
  const assign = next ? /^self\.state\.(\w+)\s*=\s*(?:list\()?\s*(\w+)\s*\)?$/.exec(next.text) : null;
  if (assign && assign[2] === resultName) return { into: assign[1], last: gatherAt + 1 };
  return { into: gather.into, last: gatherAt };
}

/** The kickoff inside `async def helper(...)` (under `async with semaphore:` or not), returning its text. */
function helperKickoff(def: PyStatement): Kickoff {
  let block = def.block;
  const [only] = block;
  if (only !== undefined && block.length === 1 && /^async\s+with\s+\w+\s*:$/.test(only.text)) block = only.block;
  let found: (Kickoff & { variable?: string }) | undefined;
  for (const s of block) {
    const k = KICKOFF.exec(s.text);
    if (k && !found) {
      found = { className: k[2]!, args: k[4]!, line: s.line, variable: k[1] };
      continue;
    }
    if (found && found.variable) {
      const v = found.variable;
      if (new RegExp(`^return\\s+${v}(\\.raw)?$`).test(s.text)) continue;
      const alias = new RegExp(`^(\\w+)\\s*=\\s*${v}\\.raw$`).exec(s.text);
      if (alias) {
        found.variable = alias[1];
        continue;
      }
    }
    if (found && !found.variable && /^return\b/.test(s.text)) continue;
    if (DROPPED.test(s.text)) continue;
    throw new Unmappable(s, 'an async helper that does more than kick off one crew and return its output');
  }
  if (!found) throw new Unmappable(def, 'an async helper without a crew kickoff');
  return found;
}
