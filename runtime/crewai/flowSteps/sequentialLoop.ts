import type { ExprScope } from '../flowExpression';
import { callArguments, type PyStatement } from '../pythonSource';
import { crewBody, crewInputs, KICKOFF } from './crewKickoff';
import { DROPPED } from './dropped';
import { flush } from './flushPending';
import { loopTarget, stateList } from './loopTarget';
import type { MethodContext } from './methodContext';
import { Unmappable } from './unmappable';

/**
 * `for x in self.state.items:` (or `for i, x in enumerate(…)`) kicking off one crew per item, one after
 * another, each result appended to a state list: a for_each of concurrency 1 into `<method>_results`,
 * then the list extended by those results (so a list that already held items keeps them, as with append).
 */
export function sequentialLoop(ctx: MethodContext, s: PyStatement, vars: string, source: string): void {
  const block = s.block.filter((b) => !DROPPED.test(b.text));
  ctx.out.dropped += s.block.length - block.length;
  const { index, item, list } = loopTarget(vars, source, s, 'a loop over pairs other than enumerate(…)');
  const items = stateList(list, ctx.scope);
  if (items === undefined) throw new Unmappable(s, `a for loop over ${list}, which is not a state list`);
  const [first, second] = block;
  const kick = first ? KICKOFF.exec(first.text) : null;
  if (!first || !kick || kick[3] !== 'kickoff') throw new Unmappable(s, 'a for loop whose body does not start with a crew kickoff (`result = SomeCrew().crew().kickoff(inputs={…})`)');
  const result = kick[1];
  // What the body keeps of each result: `self.state.list.append(result.raw)` (or `str(result)`, `result`).
  const kept = result && second !== undefined && block.length === 2 ? new RegExp(`^self\\.state\\.(\\w+)\\.append\\(\\s*(?:${result}\\.raw|str\\(\\s*${result}\\s*\\)|${result})\\s*\\)$`).exec(second.text) : null;
  if (!kept || second === undefined) throw new Unmappable(second ?? s, 'a for loop that does more with each crew result than append its text to a state list (`self.state.items.append(result.raw)`)');
  const itemScope: ExprScope = { input: new Set(), results: new Set(), locals: new Map(), item, index };
  const kw = callArguments(kick[4]!).keywords;
  for (const key of kw.keys()) if (key !== 'inputs') throw new Unmappable(first, `kickoff(${key}=…)`);
  const raw = kw.get('inputs')?.trim();
  if (raw !== undefined && (!raw.startsWith('{') || !raw.endsWith('}'))) throw new Unmappable(first, 'crew inputs that are not a dict literal');
  const inputs = raw !== undefined ? crewInputs(raw, itemScope, (entry) => new Unmappable(first, `the crew input ${entry} is not a string, f-string, item or state value`)) : {};
  flush(ctx);
  const taken = new Set(ctx.out.steps.flatMap((st) => (st.body.type === 'for_each' ? [st.body.into] : [])));
  let into = `${ctx.fn.name}_results`;
  for (let n = 2; taken.has(into); n += 1) into = `${ctx.fn.name}_results${n}`;
  const className = kick[2]!;
  ctx.out.crews.push({ className, line: first.line });
  ctx.push({ body: { type: 'for_each', items, body: crewBody(className, inputs), concurrency: 1, into } }, false);
  const field = kept[1]!;
  const extend = `self.state.${field}.extend(self.state.${into})`;
  ctx.pending.python.push(extend);
  ctx.pending.assigns.push({ field, op: 'extend', expr: `self.state.${into}`, at: second });
}
