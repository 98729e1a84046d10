import { toTemplate } from '../flowExpression';
import { callArguments, type PyStatement } from '../pythonSource';
import { flush } from './flushPending';
import type { MethodContext } from './methodContext';
import { Unmappable } from './unmappable';

/** `answer = input("prompt")` (`.strip()`, `.lower()` after it), or a state field set so. */
export const INPUT = /^(?:(\w+)|self\.state\.(\w+))\s*=\s*input\s*\(([\s\S]*?)\)((?:\s*\.\s*(?:strip|lower)\s*\(\s*\))*)$/;

/**
 * `answer = input("Choose: ")`: a human feedback step asking what the method printed just before (a
 * numbered menu) and the prompt; the answer is the step's state field `<method>_input_feedback`, which
 * the statements after it read for `answer` (a router's tests become rules on it).
 */
export function askInput(ctx: MethodContext, s: PyStatement, m: RegExpExecArray, before: PyStatement[]): void {
  // INPUT's groups 3 (the arguments) and 4 (the calls after it, maybe none) always take part.
  const [, local, field] = m;
  const after = m[4]!;
  const { positional, keywords } = callArguments(m[3]!);
  if (keywords.size > 0 || positional.length > 1) throw new Unmappable(s, 'input() with more than a prompt');
  const printed = printedBefore(ctx, before);
  const prompt = positional[0] !== undefined ? toTemplate(positional[0], ctx.scope) : '';
  if (prompt === undefined) throw new Unmappable(s, `an input() prompt (${positional[0]}) that is not a string, f-string or state value`);
  const message = [...printed, prompt.trim()].filter((l) => l !== '').join('\n') || 'Your answer';
  flush(ctx);
  const name = ctx.freeLabel(`${ctx.fn.name}_input`);
  ctx.push({ body: { type: 'human_feedback', message, learn: false }, name }, true);
  // `.strip()` / `.lower()` after input() apply to the answer where it is read.
  const answer = `self.state.${name}_feedback${after.replace(/\s+/g, '')}`;
  if (local) {
    ctx.scope.locals.set(local, answer);
    // A plain answer is a reference (rules can test it); one with .strip() is computed in the script that reads it.
    if (after.trim() !== '') {
      ctx.pending.python.push(`${local} = ${answer}`);
      ctx.pending.locals.push({ name: local, expr: answer });
    }
  } else {
    ctx.pending.python.push(s.text);
    ctx.pending.assigns.push({ field: field!, op: '=', expr: answer, at: s });
  }
}

/** The lines the `print(…)` calls right before an input() show (each one text), in order. */
function printedBefore(ctx: MethodContext, before: PyStatement[]): string[] {
  const printed: string[] = [];
  for (let j = before.length - 1; j >= 0; j -= 1) {
    const p = /^print\s*\(([\s\S]*)\)$/.exec(before[j]!.text);
    if (!p) break;
    const line = callArguments(p[1]!).positional.length === 1 ? toTemplate(p[1]!, ctx.scope) : undefined;
    if (line === undefined) break;
    printed.unshift(line);
  }
  return printed;
}
