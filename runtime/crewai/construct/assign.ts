import type { PyExpr } from '../python/pyAst';
import type { Ev } from './evalTypes';
import { inputName, type Frame } from './frames';
import type { Val } from './values';

/** Binds `value` to an assignment target: a name, an attribute, an item, or a tuple of targets. */
export function assignTo(ev: Ev, frame: Frame, target: PyExpr, value: Val): void {
  switch (target.k) {
    case 'name':
      nameIt(value, target.id);
      if (value.t === 'input' && value.prompt !== undefined && !value.named) {
        value.name = target.id;
        value.named = true;
      }
      frame.locals.set(target.id, value);
      return;
    case 'attr': {
      const obj = ev.expr(frame, target.obj);
      if (obj.t === 'inst' || obj.t === 'obj') {
        nameIt(value, target.name);
        obj.attrs.set(target.name, value);
      }
      return;
    }
    case 'sub': {
      const container = ev.expr(frame, target.obj);
      const key = ev.expr(frame, target.index);
      if (container.t === 'dict' && key.t === 'lit' && key.v !== null) {
        nameIt(value, String(key.v));
        container.entries.set(String(key.v), value);
      } else if (container.t === 'list' && key.t === 'lit' && typeof key.v === 'number') {
        const i = key.v < 0 ? container.items.length + key.v : key.v;
        if (i >= 0 && i < container.items.length) container.items[i] = value;
      }
      return;
    }
    case 'tuple':
    case 'list': {
      const items = value.t === 'list' ? value.items : undefined;
      const star = target.items.findIndex((t) => t.k === 'star');
      target.items.forEach((t, i) => {
        if (t.k === 'star') {
          const rest = items ? items.slice(star, items.length - (target.items.length - star - 1)) : [];
          assignTo(ev, frame, t.e, { t: 'list', items: rest });
          return;
        }
        const index = star >= 0 && i > star && items ? items.length - (target.items.length - i) : i;
        const part: Val = items?.[index] ?? partOf(value, t, frame);
        assignTo(ev, frame, t, part);
      });
      return;
    }
    default:
      return;
  }
}

/** One element of an unpacked run-time value: a run-time value of its own, named after its target. */
function partOf(value: Val, target: PyExpr, frame: Frame): Val {
  if (value.t !== 'input') return { t: 'unknown', why: 'unpacking a value whose items are not known' };
  const text = frame.mod.source.slice(target.start, target.end);
  return { t: 'input', name: inputName(text), bind: target, mod: frame.mod };
}

/** The first name an object is bound to names it (an agent's id, a task's id). */
function nameIt(value: Val, name: string): void {
  if (value.t === 'obj' && value.hint === undefined) value.hint = name;
}
