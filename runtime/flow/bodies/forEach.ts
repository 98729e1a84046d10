import type { FlowBody } from '../../../shared/model/flow';
import { BudgetReached, errorMessage } from '../../errors';
import { lookup, renderTemplate } from '../template';
import { runAgentBody } from './agent';
import { runCrewBody } from './crew';
import { runLlm } from './llm';
import type { BodyOutcome, BodyRunner, ItemResult, MethodScope } from './types';

type ItemBody = Extract<FlowBody, { type: 'for_each' }>['body'];

/** A for_each method runs its body once per item; the item and its index reach the body's templates. */
const ITEM_RUNNERS: { [K in ItemBody['type']]: BodyRunner<K> } = { crew: runCrewBody, agent: runAgentBody, llm: runLlm };

/** A for_each failed on some item (the first that failed, by index). */
export class ForEachItemFailed extends Error {
  override name = 'ForEachItemFailed';
}

/**
 * Runs the body once per item of `items`, at most `concurrency` at a time. Results go to
 * `state.<into>` in item order (an item's JSON when its body gives one, else its text). Every item has a
 * span of its own (flow.item.started → completed | failed); a finished item is checkpointed, so a resumed
 * run reports it as restored and makes no model call for it. The first failure stops new items from
 * starting; the ones running finish (and are kept), then the method fails. An item stopped at the run's
 * budget is paused, not failed: no new item starts, and the method pauses with it (its finished items are
 * checkpointed, so the resumed run goes on with the rest).
 */
export const runForEach: BodyRunner<'for_each'> = async (body, scope) => {
  const items = listOf(body.items, scope);
  const total = items.length;
  const results = new Array<ItemResult | undefined>(total);
  const done = scope.items?.done ?? {};
  const base = { methodId: scope.method.id, methodName: scope.method.name, total };
  let next = 0;
  const failures: { index: number; error: unknown }[] = [];
  let budgetStop: BudgetReached | undefined;

  const runItem = async (index: number) => {
    const saved = done[String(index)];
    if (saved) {
      scope.span.child().emit({ type: 'flow.item.completed', ...base, index, output: saved.output, durationMs: 0, restoredFrom: 'checkpoint' });
      results[index] = saved;
      return;
    }
    const span = scope.span.child();
    const started = performance.now();
    span.emit({ type: 'flow.item.started', ...base, index, item: typeof items[index] === 'string' ? (items[index] as string) : JSON.stringify(items[index]) });
    const itemScope: MethodScope = { ...scope, span, each: { item: items[index], index } };
    try {
      const runner = ITEM_RUNNERS[body.body.type] as (b: ItemBody, s: MethodScope) => Promise<BodyOutcome>;
      const outcome = await runner(body.body, itemScope);
      if (outcome.kind !== 'done') throw new Error(`${scope.method.name}: item ${index} paused, which a for_each body cannot do`);
      const result: ItemResult = outcome.json !== undefined ? { output: outcome.output, json: outcome.json } : { output: outcome.output };
      results[index] = result;
      span.emit({ type: 'flow.item.completed', ...base, index, output: outcome.output, durationMs: Math.round(performance.now() - started) });
      scope.items?.record(index, result);
    } catch (error) {
      if (error instanceof BudgetReached) {
        span.emit({ type: 'flow.item.paused', ...base, index, reason: 'budget', message: error.message, durationMs: Math.round(performance.now() - started) });
        budgetStop ??= error;
        return;
      }
      span.emit({ type: 'flow.item.failed', ...base, index, error: errorMessage(error), durationMs: Math.round(performance.now() - started) });
      failures.push({ index, error });
    }
  };
  const worker = async () => {
    while (next < total && failures.length === 0 && !budgetStop && !scope.ctx.signal.aborted) {
      const index = next;
      next += 1;
      await runItem(index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(body.concurrency, Math.max(total, 1)) }, worker));
  const [first] = failures.sort((a, b) => a.index - b.index);
  if (first !== undefined) {
    throw new ForEachItemFailed(`${scope.method.name}: item ${first.index} failed: ${errorMessage(first.error)}`);
  }
  if (budgetStop) throw budgetStop;
  if (scope.ctx.signal.aborted) throw scope.ctx.signal.reason ?? new Error('stopped');
  const values = results.map((r) => (r!.json !== undefined ? r!.json : r!.output));
  return { kind: 'done', output: JSON.stringify(values), json: values, set: { [body.into]: values }, itemsInto: body.into };
};

/** `{state.list}` gives the list itself; any other template must render to a JSON array. */
function listOf(template: string, scope: MethodScope): unknown[] {
  const whole = /^\{((?:state|input)(?:\.[A-Za-z0-9_-]+)*)\}$/.exec(template.trim());
  let value: unknown;
  if (whole) {
    const found = lookup(whole[1]!, scope);
    if (!found.found) renderTemplate(template, scope, `${scope.method.name}.items`); // throws, naming what is missing
    value = typeof found.value === 'string' ? parseJson(found.value) : found.value;
  } else value = parseJson(renderTemplate(template, scope, `${scope.method.name}.items`));
  if (!Array.isArray(value)) throw new ForEachItemFailed(`${scope.method.name}.items: ${template} is not a list (got ${value === undefined ? 'nothing' : JSON.stringify(value).slice(0, 80)})`);
  return value;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
