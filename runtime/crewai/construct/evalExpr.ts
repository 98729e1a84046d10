import { dirname, join } from 'node:path';
import type { FPart, PyExpr } from '../python/pyAst';
import { crewBaseAttr } from './crewBase';
import type { Ev } from './evalTypes';
import type { Frame } from './frames';
import { derived, runtime, strOf, textParts } from './valueOps';
import { lit, textOf, truthOf, UNKNOWN, type TextPart, type Val } from './values';

/** The value of an expression in `frame`, as far as it can be known without running anything. */
export function evalExpr(ev: Ev, frame: Frame, e: PyExpr): Val {
  if (!ev.tick()) return UNKNOWN('the project is too large to follow');
  switch (e.k) {
    case 'name':
      return ev.lookup(frame, e.id, e);
    case 'const':
      return e.bytes ? UNKNOWN('bytes') : lit(e.v);
    case 'fstr':
      return fstring(ev, frame, e.parts);
    case 'attr':
      return getAttr(ev, frame, ev.expr(frame, e.obj), e.name, e);
    case 'sub':
      return getItem(ev, frame, ev.expr(frame, e.obj), e);
    case 'call':
      return ev.call(frame, e);
    case 'bin':
      return binary(ev, frame, e);
    case 'bool': {
      const l = ev.expr(frame, e.l);
      const t = truthOf(l);
      if (t === undefined) return runtime(frame, e, [l, ev.expr(frame, e.r)]);
      return (e.op === 'and') === t ? ev.expr(frame, e.r) : l;
    }
    case 'not': {
      const v = ev.expr(frame, e.e);
      const t = truthOf(v);
      return t === undefined ? runtime(frame, e, [v]) : lit(!t);
    }
    case 'unary': {
      const v = ev.expr(frame, e.e);
      if (v.t === 'lit' && typeof v.v === 'number') return lit(e.op === '-' ? -v.v : e.op === '+' ? v.v : ~v.v);
      return runtime(frame, e, [v]);
    }
    case 'cmp':
      return compare(ev, frame, e);
    case 'list':
    case 'tuple':
    case 'set':
      return { t: 'list', items: e.items.flatMap((x) => spread(ev, frame, x)), ...(e.k === 'tuple' ? { tuple: true } : {}) };
    case 'dict':
      return dict(ev, frame, e);
    case 'comp':
      return comprehension(ev, frame, e);
    case 'lambda':
      return { t: 'lambda', e, mod: frame.mod };
    case 'ifexp': {
      const t = truthOf(ev.expr(frame, e.test));
      return ev.expr(frame, t === false ? e.orelse : e.body);
    }
    case 'await':
    case 'star':
      return ev.expr(frame, e.e);
    case 'walrus': {
      const v = ev.expr(frame, e.value);
      frame.locals.set(e.target, v);
      return v;
    }
    default:
      return UNKNOWN(e.k === 'unknown' ? e.what : e.k, ev.loc(frame.mod, e));
  }
}

function spread(ev: Ev, frame: Frame, x: PyExpr): Val[] {
  if (x.k !== 'star') return [ev.expr(frame, x)];
  const v = ev.expr(frame, x.e);
  return v.t === 'list' ? v.items : [UNKNOWN('an unpacked value that is not a list')];
}

function fstring(ev: Ev, frame: Frame, parts: FPart[]): Val {
  const out: TextPart[] = [];
  for (const p of parts) {
    if (typeof p === 'string') {
      out.push(p);
      continue;
    }
    const v = ev.expr(frame, p.e);
    const text = p.spec || p.conv ? undefined : strOf(v);
    if (text !== undefined) out.push(text);
    else if (v.t === 'text' && !p.spec && !p.conv) out.push(...v.parts);
    else if (v.t === 'input' && !p.spec && !p.conv) out.push(v);
    else out.push(derived(frame, p.e));
  }
  return { t: 'text', parts: out };
}

export function getAttr(ev: Ev, frame: Frame, v: Val, name: string, e: PyExpr): Val {
  switch (v.t) {
    case 'module': {
      if (!v.mod) return { t: 'ext', qual: `${v.qual}.${name}` };
      const found = ev.moduleGlobals(v.mod).get(name);
      if (found) return found;
      const sub = ev.src.resolveModule(v.mod, `.${name}`.slice(1), 1);
      const subMod = sub && sub.endsWith(`${name}.py`) ? ev.src.module(sub) : undefined;
      return subMod ? { t: 'module', qual: `${v.qual}.${name}`, mod: subMod } : UNKNOWN(`${v.mod.file} defines no ${name}`, ev.loc(frame.mod, e));
    }
    case 'ext':
      return { t: 'ext', qual: `${v.qual}.${name}` };
    case 'inst': {
      const own = v.attrs.get(name) ?? crewBaseAttr(ev, frame, v, name);
      if (own) return own;
      const method = ev.method(v.cls, name);
      if (method) return { ...method, self: v };
      const attr = ev.classAttr(v.cls, name);
      if (attr) return attr;
      // A Flow's state is known only at run time: `self.state.x` is a run-time value.
      if (name === 'state' && ev.baseNames(v.cls).includes('Flow')) return derived(frame, e);
      return UNKNOWN(`${v.cls.name} has no attribute ${name} the importer can see`, ev.loc(frame.mod, e));
    }
    case 'class': {
      const method = ev.method(v.ref, name);
      return method ?? ev.classAttr(v.ref, name) ?? UNKNOWN(`${v.ref.name}.${name}`);
    }
    case 'obj':
      return v.attrs.get(name) ?? v.args.kw.get(name) ?? UNKNOWN(`${v.cls}.${name}`, ev.loc(frame.mod, e));
    case 'input':
    case 'result':
      return derived(frame, e, v, name);
    case 'path':
      if (name === 'parent') return { t: 'path', abs: dirname(v.abs) };
      return UNKNOWN(`the path attribute ${name}`);
    default:
      return UNKNOWN(`the attribute ${name}`, ev.loc(frame.mod, e));
  }
}

function getItem(ev: Ev, frame: Frame, v: Val, e: Extract<PyExpr, { k: 'sub' }>): Val {
  const key = ev.expr(frame, e.index);
  if (v.t === 'input' || v.t === 'result') return derived(frame, e, v, key.t === 'lit' && key.v !== null ? String(key.v) : undefined);
  if (v.t === 'dict' && key.t === 'lit' && key.v !== null) {
    const found = v.entries.get(String(key.v));
    if (found) return found;
    const missing = v.yaml ? { key: String(key.v), file: v.yaml, keys: [...v.entries.keys()] } : undefined;
    return { t: 'unknown', why: v.yaml ? `${v.yaml} has no "${String(key.v)}"` : `the key "${String(key.v)}" is not in the dict`, at: ev.loc(frame.mod, e), ...(missing ? { missing } : {}) };
  }
  if (v.t === 'ext' && v.qual === 'os.environ') {
    const name = textOf(key);
    if (name !== undefined) return { t: 'env', name };
  }
  if (v.t === 'list' && key.t === 'lit' && typeof key.v === 'number') {
    const i = key.v < 0 ? v.items.length + key.v : key.v;
    return v.items[i] ?? UNKNOWN('an index past the end of the list');
  }
  if (v.t === 'unknown' && v.missing) return v;
  return runtime(frame, e, [v, key]);
}

function binary(ev: Ev, frame: Frame, e: Extract<PyExpr, { k: 'bin' }>): Val {
  const l = ev.expr(frame, e.l);
  const r = ev.expr(frame, e.r);
  if (e.op === '/' && l.t === 'path') {
    const part = textOf(r);
    return part !== undefined ? { t: 'path', abs: join(l.abs, part) } : UNKNOWN('a path joined with a computed part');
  }
  if (l.t === 'lit' && r.t === 'lit' && typeof l.v === 'number' && typeof r.v === 'number') {
    const ops: Record<string, (a: number, b: number) => number> = { '+': (a, b) => a + b, '-': (a, b) => a - b, '*': (a, b) => a * b, '/': (a, b) => a / b, '//': (a, b) => Math.floor(a / b), '%': (a, b) => a % b };
    const op = ops[e.op];
    if (op) return lit(op(l.v, r.v));
  }
  if (e.op === '+') {
    if (l.t === 'list' && r.t === 'list') return { t: 'list', items: [...l.items, ...r.items] };
    const parts = [textParts(l), textParts(r)];
    if (parts[0] && parts[1]) return { t: 'text', parts: [...parts[0], ...parts[1]] };
  }
  return runtime(frame, e, [l, r]);
}

function compare(ev: Ev, frame: Frame, e: Extract<PyExpr, { k: 'cmp' }>): Val {
  const first = ev.expr(frame, e.first);
  if (e.rest.length !== 1 || first.t !== 'lit') return runtime(frame, e, [first, ...e.rest.map((r) => ev.expr(frame, r.r))]);
  const { op, r } = e.rest[0]!;
  const right = ev.expr(frame, r);
  if (right.t === 'lit') {
    const a = first.v;
    const b = right.v;
    const table: Record<string, () => boolean> = { '==': () => a === b, '!=': () => a !== b, is: () => a === b, 'is not': () => a !== b };
    if (table[op]) return lit(table[op]!());
  }
  if ((op === 'in' || op === 'not in') && right.t === 'list') {
    const has = right.items.some((x) => x.t === 'lit' && x.v === first.v);
    return lit(op === 'in' ? has : !has);
  }
  return runtime(frame, e, [first, right]);
}

function dict(ev: Ev, frame: Frame, e: Extract<PyExpr, { k: 'dict' }>): Val {
  const entries = new Map<string, Val>();
  for (const en of e.entries) {
    if ('spread' in en) {
      const v = ev.expr(frame, en.spread);
      if (v.t === 'dict') for (const [k, x] of v.entries) entries.set(k, x);
      continue;
    }
    const k = ev.expr(frame, en.key);
    const key = strOf(k);
    if (key !== undefined) entries.set(key, ev.expr(frame, en.value));
  }
  return { t: 'dict', entries };
}

function comprehension(ev: Ev, frame: Frame, e: Extract<PyExpr, { k: 'comp' }>): Val {
  const gen = e.gens[0];
  if (!gen || e.gens.length > 1) return UNKNOWN('a comprehension over several loops');
  const iter = ev.expr(frame, gen.iter);
  if (iter.t !== 'list') return runtime(frame, e, [iter]);
  const scope: Frame = { ...frame, locals: new Map(frame.locals) };
  const items: Val[] = [];
  const entries = new Map<string, Val>();
  for (const item of iter.items.slice(0, 200)) {
    ev.assign(scope, gen.target, item);
    if (gen.ifs.some((c) => truthOf(ev.expr(scope, c)) === false)) continue;
    if (e.kind === 'dict' && e.value) {
      const key = strOf(ev.expr(scope, e.elt));
      if (key !== undefined) entries.set(key, ev.expr(scope, e.value));
    } else items.push(ev.expr(scope, e.elt));
  }
  return e.kind === 'dict' ? { t: 'dict', entries } : { t: 'list', items };
}
