import type { PyCall, PyClass, PyDef, PyExpr, PyModule, PyStmt } from '../python/pyAst';
import type { ProjectSource } from '../project/projectSource';
import { assignTo } from './assign';
import { evalCall } from './evalCall';
import { evalExpr, getAttr } from './evalExpr';
import type { Ev } from './evalTypes';
import { inputName, nameExpr, type EvalRecord, type Frame } from './frames';
import { baseName } from './valueOps';
import { truthOf, UNKNOWN, type ClassRef, type InstVal, type Loc, type ObjVal, type Val } from './values';

/** Work the evaluator does before it gives up on a project (a downloaded project is untrusted). */
const MAX_STEPS = 400_000;
export const MAX_CALL_DEPTH = 24;

/**
 * Follows a project's Python without running it, far enough to know what its crews are made of: module
 * top levels in import order, the functions and methods they call (arguments bound), class instances
 * and their attributes. Conditions and loops whose values cannot be known are followed as `Frame.
 * standalone` says. Everything outside the project is an `ext` value; calling a class from outside the
 * project makes an `obj` recording its arguments.
 */
export class Evaluator implements Ev {
  readonly record: EvalRecord = { objects: [], kickoffs: [], prompts: new Map() };
  /** YAML files that could not be read (CrewAiYamlInvalid, naming the file): said when nothing else imports. */
  readonly yamlErrors: Error[] = [];
  private readonly moduleEnvs = new Map<PyModule, Map<string, Val>>();
  private readonly running = new Set<PyModule>();
  private steps = 0;
  private nextId = 1;
  /** The module run as `__main__` (its `if __name__ == "__main__":` block runs). */
  entry?: PyModule;

  constructor(readonly src: ProjectSource) {}

  expr(frame: Frame, e: PyExpr): Val {
    return evalExpr(this, frame, e);
  }

  call(frame: Frame, e: PyCall): Val {
    return evalCall(this, frame, e);
  }

  attr(frame: Frame, v: Val, name: string, e: PyExpr): Val {
    return getAttr(this, frame, v, name, e);
  }

  assign(frame: Frame, target: PyExpr, value: Val): void {
    assignTo(this, frame, target, value);
  }

  newId(): number {
    return this.nextId++;
  }

  /** Counts work; past the limit every further expression is unknown. */
  tick(): boolean {
    this.steps += 1;
    return this.steps <= MAX_STEPS;
  }

  loc(mod: PyModule, node: { line: number; col?: number }): Loc {
    return { file: mod.file, line: node.line, ...(node.col !== undefined ? { col: node.col } : {}) };
  }

  /** A module's globals after its top level ran (once; a module imported while it runs gives what it has so far). */
  moduleGlobals(mod: PyModule): Map<string, Val> {
    const known = this.moduleEnvs.get(mod);
    if (known) return known;
    const globals = new Map<string, Val>();
    this.moduleEnvs.set(mod, globals);
    globals.set('__file__', { t: 'path', abs: this.src.fileOf(mod) });
    globals.set('__name__', { t: 'lit', v: mod === this.entry ? '__main__' : mod.file.replace(/\.py$/, '').replace(/\//g, '.') });
    this.running.add(mod);
    try {
      this.runBlock({ mod, locals: globals, globals, standalone: false, depth: 0 }, mod.body);
    } finally {
      this.running.delete(mod);
    }
    return globals;
  }

  /** Runs statements until one returns (`frame.returned`). */
  runBlock(frame: Frame, body: PyStmt[]): void {
    for (const s of body) {
      if (frame.returned || !this.tick()) return;
      this.runStmt(frame, s);
    }
  }

  private runStmt(frame: Frame, s: PyStmt): void {
    switch (s.k) {
      case 'expr':
        evalExpr(this, frame, s.e);
        return;
      case 'assign': {
        const value = evalExpr(this, frame, s.value);
        for (const t of s.targets) assignTo(this, frame, t, value);
        return;
      }
      case 'augassign':
        this.augAssign(frame, s);
        return;
      case 'annassign':
        return;
      case 'return':
        frame.returned = { value: s.value ? evalExpr(this, frame, s.value) : { t: 'lit', v: null } };
        return;
      case 'if':
        this.runIf(frame, s);
        return;
      case 'for':
        this.runFor(frame, s);
        return;
      case 'with':
        for (const item of s.items) {
          const v = evalExpr(this, frame, item.e);
          if (item.as) assignTo(this, frame, item.as, v);
        }
        this.runBlock(frame, s.body);
        return;
      case 'try':
        this.runBlock(frame, s.body);
        if (!frame.returned) this.runBlock(frame, s.orelse);
        if (!frame.returned) this.runBlock(frame, s.finalbody);
        return;
      case 'raise':
        frame.returned = { value: UNKNOWN('the code raises an exception here', this.loc(frame.mod, s)) };
        return;
      case 'def':
        frame.locals.set(s.name, this.defined(frame, s));
        return;
      case 'class':
        frame.locals.set(s.name, { t: 'class', ref: { name: s.name, def: s, mod: frame.mod } });
        return;
      case 'import':
      case 'from':
        this.runImport(frame, s);
        return;
      case 'while':
        // A loop whose end cannot be known is not followed (its body is read once when reading standalone).
        if (frame.standalone) this.runBlock(frame, s.body);
        return;
      default:
        return;
    }
  }

  /** A function definition's value: a function, or (decorated with @tool) still the function, marked by its decorator. */
  private defined(frame: Frame, s: PyDef): Val {
    return { t: 'func', def: s, mod: frame.mod, ...(frame.cls ? { cls: frame.cls } : {}) };
  }

  private augAssign(frame: Frame, s: Extract<PyStmt, { k: 'augassign' }>): void {
    const current = evalExpr(this, frame, s.target);
    const value = evalExpr(this, frame, s.value);
    if (s.op === '+' && current.t === 'list' && value.t === 'list') {
      current.items.push(...value.items);
      return;
    }
    const combined = evalExpr(this, frame, { ...s.target, k: 'bin', op: s.op, l: s.target, r: s.value } as PyExpr);
    assignTo(this, frame, s.target, combined);
  }

  private runIf(frame: Frame, s: Extract<PyStmt, { k: 'if' }>): void {
    const test = truthOf(evalExpr(this, frame, s.test));
    // An unknown test takes the first branch: the code's main path, usually the configured one.
    if (test === false) this.runBlock(frame, s.orelse);
    else this.runBlock(frame, s.body);
  }

  private runFor(frame: Frame, s: Extract<PyStmt, { k: 'for' }>): void {
    const iter = evalExpr(this, frame, s.iter);
    const items = iter.t === 'list' ? iter.items : iter.t === 'dict' ? [...iter.entries.keys()].map((k): Val => ({ t: 'lit', v: k })) : undefined;
    if (items) {
      for (const item of items.slice(0, 100)) {
        if (frame.returned) return;
        assignTo(this, frame, s.target, item);
        this.runBlock(frame, s.body);
      }
      return;
    }
    if (!frame.standalone) return;
    // Once, with the loop variables standing for "each item": what the body builds is still seen.
    const text = frame.mod.source.slice(s.target.start, s.target.end);
    assignTo(this, frame, s.target, { t: 'input', name: inputName(text), bind: s.target, mod: frame.mod, at: this.loc(frame.mod, s) });
    this.runBlock(frame, s.body);
  }

  private runImport(frame: Frame, s: Extract<PyStmt, { k: 'import' | 'from' }>): void {
    if (s.k === 'import') {
      for (const n of s.names) {
        const head = n.as ?? n.name.split('.')[0]!;
        const qual = n.as ? n.name : head;
        const file = this.src.resolveModule(frame.mod, qual, 0);
        const mod = file ? this.src.module(file) : undefined;
        frame.locals.set(head, { t: 'module', qual, ...(mod ? { mod } : {}) });
      }
      return;
    }
    const file = this.src.resolveModule(frame.mod, s.module, s.level);
    const mod = file ? this.src.module(file) : undefined;
    for (const n of s.names) {
      if (n.name === '*') {
        if (mod) for (const [k, v] of this.moduleGlobals(mod)) if (!k.startsWith('_')) frame.locals.set(k, v);
        continue;
      }
      frame.locals.set(n.as ?? n.name, this.imported(frame.mod, s.module, s.level, mod, n.name));
    }
  }

  /** `from <module> import <name>`: a name of a project module (or one of its submodules), else an outside name. */
  private imported(from: PyModule, module: string, level: number, mod: PyModule | undefined, name: string): Val {
    if (mod) {
      const globals = this.moduleGlobals(mod);
      const v = globals.get(name);
      if (v) return v;
      const sub = this.src.resolveModule(from, module === '' ? name : `${module}.${name}`, level);
      const subMod = sub ? this.src.module(sub) : undefined;
      if (subMod) return { t: 'module', qual: `${module}.${name}`, mod: subMod };
      if (this.running.has(mod)) return UNKNOWN(`${name} is imported from ${mod.file} while that module is still being read (a circular import)`);
      return UNKNOWN(`${mod.file} defines no ${name}`);
    }
    if (level > 0) return UNKNOWN(`the module ${'.'.repeat(level)}${module} is not in the project`);
    return { t: 'ext', qual: `${module}.${name}` };
  }

  /** Looks a name up: locals, then the module's globals, then Python's builtins. */
  lookup(frame: Frame, name: string, at: PyExpr): Val {
    const v = frame.locals.get(name) ?? frame.globals.get(name);
    if (v) return v;
    if (BUILTINS.has(name)) return { t: 'ext', qual: `builtins.${name}` };
    return UNKNOWN(`${name} is not defined where it is used`, this.loc(frame.mod, at));
  }

  /** Calls a project function with arguments bound to its parameters; its return value. */
  callFunction(fn: Extract<Val, { t: 'func' }>, pos: Val[], kw: Map<string, Val>, caller: Frame): Val {
    if (caller.depth >= MAX_CALL_DEPTH) return UNKNOWN(`calls nested deeper than ${MAX_CALL_DEPTH}`);
    const frame: Frame = { mod: fn.mod, locals: new Map(), globals: this.moduleGlobals(fn.mod), standalone: caller.standalone, depth: caller.depth + 1, ...(fn.cls ? { cls: fn.cls } : {}) };
    const args = fn.self ? [fn.self, ...pos] : pos;
    this.bindParams(frame, fn.def, args, kw, caller);
    this.runBlock(frame, fn.def.body);
    return frame.returned?.value ?? { t: 'lit', v: null };
  }

  private bindParams(frame: Frame, def: PyDef, args: Val[], kw: Map<string, Val>, caller: Frame): void {
    let i = 0;
    for (const p of def.params) {
      if (p.kind === 'star') {
        frame.locals.set(p.name, { t: 'list', items: args.slice(i), tuple: true });
        i = args.length;
      } else if (p.kind === 'dstar') frame.locals.set(p.name, { t: 'dict', entries: new Map([...kw].filter(([k]) => !def.params.some((q) => q.name === k))) });
      else if (i < args.length) frame.locals.set(p.name, args[i++]!);
      else if (kw.has(p.name)) frame.locals.set(p.name, kw.get(p.name)!);
      else if (p.default) frame.locals.set(p.name, evalExpr(this, { ...frame, locals: new Map(), standalone: caller.standalone }, p.default));
      else frame.locals.set(p.name, { t: 'input', name: p.name, bind: nameExpr(p.name, def), mod: frame.mod, at: this.loc(frame.mod, def) });
    }
  }

  /** Makes an instance of a project class: its `__init__` (or an inherited one) runs with the arguments. */
  instantiate(cls: ClassRef, pos: Val[], kw: Map<string, Val>, caller: Frame): InstVal {
    const inst: InstVal = { t: 'inst', cls, attrs: new Map(), id: this.newId(), memo: new Map() };
    const init = this.method(cls, '__init__');
    if (init) this.callFunction({ ...init, self: inst }, pos, kw, caller);
    else for (const [k, v] of kw) inst.attrs.set(k, v);
    return inst;
  }

  /** A method of a class or one of its project bases (the def and the class that has it). */
  method(cls: ClassRef, name: string, seen = 0): Extract<Val, { t: 'func' }> | undefined {
    const def = cls.def.body.find((s): s is PyDef => s.k === 'def' && s.name === name);
    if (def) return { t: 'func', def, mod: cls.mod, cls };
    if (seen > 10) return undefined;
    for (const base of this.bases(cls)) {
      const found = this.method(base, name, seen + 1);
      if (found) return found;
    }
    return undefined;
  }

  /** The project classes a class derives from. */
  bases(cls: ClassRef): ClassRef[] {
    const frame: Frame = { mod: cls.mod, locals: this.moduleGlobals(cls.mod), globals: this.moduleGlobals(cls.mod), standalone: false, depth: MAX_CALL_DEPTH };
    return cls.def.bases.flatMap((b) => {
      if (b.kind !== 'pos') return [];
      const v = evalExpr(this, frame, b.e.k === 'sub' ? b.e.obj : b.e);
      return v.t === 'class' ? [v.ref] : [];
    });
  }

  /** The names of a class's bases as written (`Flow`, `BaseModel`, `BaseTool`), its project bases' included. */
  baseNames(cls: ClassRef, seen = 0): string[] {
    const own = cls.def.bases.flatMap((b) => (b.kind === 'pos' ? [baseName(b.e)] : [])).filter((n): n is string => n !== undefined);
    if (seen > 10) return own;
    return [...own, ...this.bases(cls).flatMap((b) => this.baseNames(b, seen + 1))];
  }

  /** Records a new object of an outside class. */
  made(obj: ObjVal): ObjVal {
    this.record.objects.push(obj);
    return obj;
  }

  /** The value of a class-level assignment (`agents_config = "config/agents.yaml"`, `llm = LLM(...)`). */
  classAttr(cls: ClassRef, name: string, seen = 0): Val | undefined {
    for (let i = cls.def.body.length - 1; i >= 0; i -= 1) {
      const s = cls.def.body[i]!;
      const hit = s.k === 'assign' ? s.targets.some((t) => t.k === 'name' && t.id === name) : false;
      if (!hit || s.k !== 'assign') continue;
      const frame: Frame = { mod: cls.mod, locals: new Map(), globals: this.moduleGlobals(cls.mod), standalone: false, depth: 1, cls };
      return evalExpr(this, frame, s.value);
    }
    if (seen > 10) return undefined;
    for (const base of this.bases(cls)) {
      const v = this.classAttr(base, name, seen + 1);
      if (v) return v;
    }
    return undefined;
  }

  isDecorated(def: PyDef | PyClass, name: string): boolean {
    return def.decorators.some((d) => baseName(d.k === 'call' ? d.fn : d) === name);
  }
}

const BUILTINS = new Set([
  'str', 'int', 'float', 'bool', 'list', 'dict', 'tuple', 'set', 'len', 'print', 'input', 'open', 'range', 'enumerate', 'zip',
  'sorted', 'reversed', 'min', 'max', 'sum', 'any', 'all', 'round', 'abs', 'isinstance', 'getattr', 'hasattr', 'super', 'type',
  'map', 'filter', 'repr', 'exit', 'quit', 'Exception', 'ValueError', 'KeyError', 'TypeError', 'RuntimeError', 'object', 'id',
]);
