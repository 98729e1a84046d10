import { preludeFor, toJs, toRef, toTemplate, UnsupportedPython } from '../flowExpression';
import { noPending, type MethodContext } from './methodContext';
import { Unmappable } from './unmappable';

/** The value a state field gets from `field op value` (`=`, `+=`, `-=`, a list's append or extend). */
function assigned(field: string, op: string, value: string): string {
  if (op === '=') return value;
  if (op === '+=') return /^(-?\d+(\.\d+)?|".*")$/.test(value) ? `${field} + ${value}` : `__add(${field}, ${value})`;
  if (op === 'append') return `[...(${field} ?? []), ${value}]`;
  if (op === 'extend') return `[...(${field} ?? []), ...${value}]`;
  return `${field} ${op[0]} ${value}`;
}

/** Pending assignments become a set_state (all text) or a script. */
export function flush(ctx: MethodContext, extra?: { js: string[]; python: string[] }): void {
  const p = ctx.pending;
  if (p.assigns.length === 0 && !extra) {
    ctx.pending = noPending();
    return;
  }
  const templates = extra ? undefined : p.assigns.map((a) => (a.op === '=' ? toTemplate(a.expr, ctx.scope) : undefined));
  if (templates && templates.every((t) => t !== undefined) && new Set(p.assigns.map((a) => a.field)).size === p.assigns.length && p.assigns.every((a) => textual(ctx, a))) {
    ctx.push({ body: { type: 'set_state', set: Object.fromEntries(p.assigns.map((a, j) => [a.field, templates[j]!])) } }, true);
  } else {
    const js: string[] = [];
    try {
      for (const l of p.locals) js.push(`const __local_${l.name} = ${toJs(l.expr, ctx.scope)};`);
      for (const a of p.assigns) {
        const value = toJs(a.expr, ctx.scope);
        js.push(`state.${a.field} = ${assigned(`state.${a.field}`, a.op, value)};`);
      }
    } catch (error) {
      if (error instanceof UnsupportedPython) throw new Unmappable(p.assigns[0]?.at ?? { text: p.python[0] ?? '', line: ctx.fn.line, indent: 0, block: [] }, `${error.message} cannot be transpiled`);
      throw error;
    }
    // Each step stands alone once exported: a crew result or a parameter is the step's `input` there.
    const python = [...p.python, ...(extra?.python ?? [])].map((l) => asStepInput(ctx, l));
    const lines = [...js, ...(extra?.js ?? ['return input;'])];
    // The Python is data beside the code, never text inside it (a line terminator in a Python comment
    // could end a JavaScript comment): export writes it back as it was.
    const code = [...preludeFor(lines), ...lines].join('\n');
    ctx.push({ body: { type: 'script', code, ...(python.length > 0 ? { python: python.join('\n') } : {}) } }, !extra || extra.js.every((l) => !/^return (?!input;|\{ output: input,)/.test(l)));
  }
  ctx.pending = noPending();
}

/** Python with the crew result's and the parameter's names written as the step's `input`. */
function asStepInput(ctx: MethodContext, line: string): string {
  let out = line;
  for (const name of ctx.scope.results) {
    out = out
      .replace(new RegExp(`\\b${name}\\.raw\\b`, 'g'), 'input')
      .replace(new RegExp(`\\b${name}\\.(?:pydantic|json_dict)\\b`, 'g'), 'json.loads(input)')
      .replace(new RegExp(`\\b${name}(?=\\s*\\[)`, 'g'), 'json.loads(input)')
      .replace(new RegExp(`(?<![.\\w])${name}\\b`, 'g'), 'input');
  }
  for (const name of ctx.scope.input) if (name !== 'input') out = out.replace(new RegExp(`(?<![.\\w])${name}\\b`, 'g'), 'input');
  return out;
}

/** Whether a template (always text) keeps the field's type: the schema says text, or the value is text. */
function textual(ctx: MethodContext, a: { field: string; expr: string }): boolean {
  const type = ctx.fieldType(a.field);
  if (type !== undefined) return type === 'string';
  if (toRef(a.expr, ctx.scope) === 'input') return true;
  return /^[fFrRuU]{0,2}["']/.test(a.expr.trim());
}
