import type { PyExpr } from '../python/pyAst';
import { inputName, type Frame } from './frames';
import { textOf, UNKNOWN, type InputVal, type ResultAccess, type TextPart, type Val } from './values';

/** A value made from run-time values: itself a run-time value, given by the expression. */
export function runtime(frame: Frame, e: PyExpr, from: Val[]): Val {
  if (!from.some((v) => v.t === 'input' || v.t === 'result')) return UNKNOWN('a value computed by Python that cannot be known without running it');
  return derived(frame, e);
}

export function derived(frame: Frame, e: PyExpr, base?: Val, step?: string): InputVal {
  const from = resultAccess(base, step);
  return { t: 'input', name: inputName(frame.mod.source.slice(e.start, e.end)), bind: e, mod: frame.mod, at: { file: frame.mod.file, line: e.line }, ...(from ? { from } : {}) };
}

/** What a value read from a crew result (an attribute or key of it) is read from. */
function resultAccess(base: Val | undefined, step: string | undefined): ResultAccess | undefined {
  if (step === undefined) return undefined;
  if (base?.t === 'result') return { of: base.of, ...(base.at ? { at: base.at } : {}), access: [step] };
  if (base?.t === 'input' && base.from) return { ...base.from, access: [...base.from.access, step] };
  return undefined;
}

/** Python's str() of a literal; undefined for anything else. */
export function strOf(v: Val): string | undefined {
  if (v.t !== 'lit') return textOf(v);
  if (v.v === null) return 'None';
  if (typeof v.v === 'boolean') return v.v ? 'True' : 'False';
  return String(v.v);
}

/** A value as text parts (strings and run-time values), for concatenation; undefined when not text. */
export function textParts(v: Val): TextPart[] | undefined {
  if (v.t === 'lit' && typeof v.v === 'string') return [v.v];
  if (v.t === 'text') return v.parts;
  if (v.t === 'input') return [v];
  return undefined;
}

/** The last name of `a.b.C` or `C[...]`. */
export function baseName(e: PyExpr): string | undefined {
  if (e.k === 'name') return e.id;
  if (e.k === 'attr') return e.name;
  if (e.k === 'sub') return baseName(e.obj);
  if (e.k === 'call') return baseName(e.fn);
  return undefined;
}

