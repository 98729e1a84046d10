import type { PyCall, PyExpr } from '../python/pyAst';
import { callBuiltin, onText } from './builtins';
import { crewBaseMethod } from './crewBase';
import type { Ev } from './evalTypes';
import { derived, runtime, strOf, textParts } from './valueOps';
import type { Frame } from './frames';
import { lit, textOf, UNKNOWN, type CallArgs, type ObjVal, type Val } from './values';

/** The arguments of a call, `*list` and `**dict` spread where their values are known. */
export function evalArgs(ev: Ev, frame: Frame, e: PyCall): CallArgs {
  const pos: Val[] = [];
  const kw = new Map<string, Val>();
  for (const a of e.args) {
    const v = ev.expr(frame, a.e);
    if (a.kind === 'pos') pos.push(v);
    else if (a.kind === 'kw') kw.set(a.name, v);
    else if (a.kind === 'star' && v.t === 'list') pos.push(...v.items);
    else if (a.kind === 'dstar' && v.t === 'dict') for (const [k, x] of v.entries) kw.set(k, x);
  }
  return { pos, kw };
}

export function evalCall(ev: Ev, frame: Frame, e: PyCall): Val {
  if (e.fn.k === 'attr') {
    const obj = ev.expr(frame, e.fn.obj);
    const method = callMethod(ev, frame, obj, e.fn.name, e);
    if (method !== undefined) return method;
    return callValue(ev, frame, ev.attr(frame, obj, e.fn.name, e.fn), e);
  }
  return callValue(ev, frame, ev.expr(frame, e.fn), e);
}

/** Calls what `fn` is: a project function or class, a lambda, or something from outside the project. */
export function callValue(ev: Ev, frame: Frame, fn: Val, e: PyCall): Val {
  switch (fn.t) {
    case 'func': {
      const args = evalArgs(ev, frame, e);
      const member = fn.self?.t === 'inst' ? crewBaseMethod(ev, frame, fn, args) : undefined;
      if (member) return member;
      return ev.callFunction(fn, args.pos, args.kw, frame);
    }
    case 'class': {
      const args = evalArgs(ev, frame, e);
      return ev.instantiate(fn.ref, args.pos, args.kw, frame);
    }
    case 'lambda': {
      const args = evalArgs(ev, frame, e);
      const scope: Frame = { ...frame, mod: fn.mod, locals: new Map(frame.locals) };
      fn.e.params.forEach((p, i) => scope.locals.set(p.name, args.pos[i] ?? args.kw.get(p.name) ?? UNKNOWN('a missing argument')));
      return ev.expr(scope, fn.e.body);
    }
    case 'ext':
      return callExt(ev, frame, fn.qual, e);
    case 'input':
    case 'result':
      return derived(frame, e);
    default:
      evalArgs(ev, frame, e);
      return UNKNOWN(fn.t === 'unknown' ? fn.why : `calling a ${fn.t}`, ev.loc(frame.mod, e));
  }
}

/** A name from outside the project: Python's builtins and standard modules, else a class (an object) or a function (unknown). */
function callExt(ev: Ev, frame: Frame, qual: string, e: PyCall): Val {
  const args = evalArgs(ev, frame, e);
  const builtin = callBuiltin(ev, frame, qual, args, e);
  if (builtin !== undefined) return builtin;
  const name = qual.split('.').pop() ?? qual;
  if (/^[A-Z]/.test(name)) {
    const module = qual.includes('.') ? qual.slice(0, qual.length - name.length - 1) : undefined;
    const obj: ObjVal = { t: 'obj', cls: name, ...(module ? { module } : {}), args, at: ev.loc(frame.mod, e), id: ev.newId(), attrs: new Map() };
    return ev.made(obj);
  }
  return runtime(frame, e, [...args.pos, ...args.kw.values()]);
}

const KICKOFFS = new Set(['kickoff', 'kickoff_async', 'kickoff_for_each', 'kickoff_for_each_async', 'akickoff']);

/** Methods of values the evaluator models: lists, dicts and strings, and CrewAI objects' kickoffs. */
function callMethod(ev: Ev, frame: Frame, obj: Val, name: string, e: PyCall): Val | undefined {
  if (obj.t === 'obj' && (KICKOFFS.has(name) || (name === 'call' && /LLM|Chat/.test(obj.cls)))) {
    const args = evalArgs(ev, frame, e);
    const at = ev.loc(frame.mod, e);
    ev.record.kickoffs.push({ target: obj, ...(args.kw.has('inputs') ? { inputs: args.kw.get('inputs')! } : {}), ...(args.pos[0] ? { prompt: args.pos[0] } : {}), at, method: name });
    return { t: 'result', of: obj, at };
  }
  if (obj.t === 'input' || obj.t === 'result') return derived(frame, e);
  if (obj.t === 'list') return listMethod(ev, frame, obj, name, e);
  if (obj.t === 'dict') return dictMethod(ev, frame, obj, name, e);
  if ((obj.t === 'lit' && typeof obj.v === 'string') || obj.t === 'text') return stringMethod(ev, frame, obj, name, e);
  return undefined;
}

function listMethod(ev: Ev, frame: Frame, list: Extract<Val, { t: 'list' }>, name: string, e: PyCall): Val | undefined {
  const args = evalArgs(ev, frame, e);
  switch (name) {
    case 'append':
      list.items.push(args.pos[0] ?? lit(null));
      return lit(null);
    case 'extend':
      if (args.pos[0]?.t === 'list') list.items.push(...args.pos[0].items);
      return lit(null);
    case 'insert':
      if (args.pos[0]?.t === 'lit' && typeof args.pos[0].v === 'number' && args.pos[1]) list.items.splice(args.pos[0].v, 0, args.pos[1]);
      return lit(null);
    case 'copy':
      return { t: 'list', items: [...list.items] };
    case 'pop':
      return list.items.pop() ?? UNKNOWN('pop from an empty list');
    default:
      return undefined;
  }
}

function dictMethod(ev: Ev, frame: Frame, dict: Extract<Val, { t: 'dict' }>, name: string, e: PyCall): Val | undefined {
  const args = evalArgs(ev, frame, e);
  const key = args.pos[0] ? strOf(args.pos[0]) : undefined;
  switch (name) {
    case 'get':
      return (key !== undefined ? dict.entries.get(key) : undefined) ?? args.pos[1] ?? lit(null);
    case 'keys':
      return { t: 'list', items: [...dict.entries.keys()].map((k) => lit(k)) };
    case 'values':
      return { t: 'list', items: [...dict.entries.values()] };
    case 'items':
      return { t: 'list', items: [...dict.entries].map(([k, v]): Val => ({ t: 'list', items: [lit(k), v], tuple: true })) };
    case 'update':
      if (args.pos[0]?.t === 'dict') for (const [k, v] of args.pos[0].entries) dict.entries.set(k, v);
      for (const [k, v] of args.kw) dict.entries.set(k, v);
      return lit(null);
    case 'copy':
      return { t: 'dict', entries: new Map(dict.entries) };
    case 'setdefault':
      if (key !== undefined && !dict.entries.has(key)) dict.entries.set(key, args.pos[1] ?? lit(null));
      return key !== undefined ? dict.entries.get(key)! : UNKNOWN('setdefault');
    default:
      return undefined;
  }
}

function stringMethod(ev: Ev, frame: Frame, s: Val, name: string, e: PyCall): Val | undefined {
  const args = evalArgs(ev, frame, e);
  const text = textOf(s);
  if (name === 'format') return formatText(s, args);
  if (text === undefined && args.pos.length === 0 && (name === 'strip' || name === 'lstrip' || name === 'rstrip')) {
    const f = name === 'strip' ? (t: string) => t.trim() : name === 'lstrip' ? (t: string) => t.trimStart() : (t: string) => t.trimEnd();
    return onText(s, f) ?? derived(frame, e);
  }
  if (text === undefined) return derived(frame, e);
  const simple: Record<string, (t: string) => string> = { strip: (t) => t.trim(), lower: (t) => t.toLowerCase(), upper: (t) => t.toUpperCase(), title: (t) => t.replace(/\b\w/g, (c) => c.toUpperCase()) };
  if (simple[name] && args.pos.length === 0) return lit(simple[name]!(text));
  if (name === 'join' && args.pos[0]?.t === 'list') {
    const parts = args.pos[0].items.map(strOf);
    return parts.every((p) => p !== undefined) ? lit(parts.join(text)) : runtime(frame, e, args.pos);
  }
  if (name === 'replace' && args.pos.length === 2) {
    const [a, b] = args.pos.map(strOf);
    if (a !== undefined && b !== undefined) return lit(text.split(a).join(b));
  }
  return runtime(frame, e, [s, ...args.pos]);
}

/** `"Research {topic}".format(topic=x)`: named and positional fields filled with what is known. */
function formatText(template: Val, args: CallArgs): Val {
  const parts = textParts(template);
  if (!parts) return UNKNOWN('a format string that is not text');
  let next = 0;
  const out: Val[] = [];
  for (const p of parts) {
    if (typeof p !== 'string') {
      out.push(p);
      continue;
    }
    let last = 0;
    for (const m of p.matchAll(/\{\{|\}\}|\{([A-Za-z_]\w*|\d*)\}/g)) {
      out.push(lit(p.slice(last, m.index)));
      if (m[0] === '{{' || m[0] === '}}') out.push(lit(m[0][0]!));
      else {
        const field = m[1] ?? '';
        const v = field === '' ? args.pos[next++] : /^\d+$/.test(field) ? args.pos[Number(field)] : args.kw.get(field);
        out.push(v ?? lit(m[0]));
      }
      last = m.index + m[0].length;
    }
    out.push(lit(p.slice(last)));
  }
  const joined = out.flatMap((v) => textParts(v) ?? [strOf(v) ?? '']);
  return { t: 'text', parts: joined };
}

export type { PyExpr };
