import type { FlowBody, FlowPredicate } from '../../shared/model/flow';
import { preludeFor, toJs, toPredicate, toRef, toTemplate, UnsupportedPython, type ExprScope } from './flowExpression';
import { callArguments, pyString, splitTopLevel, statements, type PyFunction, type PyStatement } from './pythonSource';

/**
 * One Crewdeck method body read from (part of) a CrewAI Flow method. A Python method that does several
 * things (kick off a crew, then set state, then choose a route) becomes a chain of steps, the last one
 * carrying the method's name so its listeners stay as they are.
 */
export interface FlowStep {
  body: FlowBody;
  /** The method name this step needs (a feedback step whose answer later steps read by its state field). */
  name?: string;
  routes?: string[];
  outputFile?: string;
  /**
   * A router's early guard (`if …: return "label"` before the rest of the method): the route it takes
   * when no guard holds. The next step listens to this route, not to the guard's name, so the rest of
   * the method runs only when no guard returned.
   */
  continueRoute?: string;
}

/** A crew kicked off by name; `file` is filled in by the caller. */
export type CrewRef = { className: string; line: number };

export interface MethodReading {
  steps: FlowStep[];
  description?: string;
  /** Crew classes the steps kick off, by the crew bodies' `file` placeholder (`crew:<Class>`). */
  crews: CrewRef[];
  /** A part that could not be mapped: the whole method becomes a stub. */
  unsupported?: { line: number; python: string; why: string };
  /** Things dropped on purpose (print, logging). */
  dropped: number;
}


const KICKOFF = /^(?:(\w+)\s*=\s*)?(?:await\s+)?(\w+)\s*\(\s*\)\s*\.\s*crew\s*\(\s*\)\s*\.\s*(kickoff(?:_async)?)\s*\(([\s\S]*)\)$/;
const STATE_SET = /^self\.state(?:\.(\w+)|\[\s*(["'])(\w+)\2\s*\])\s*(\+=|-=|=)\s*([\s\S]+)$/;
/** `self.state.items.append(x)` / `.extend(xs)`: a list edit, applied to the list the state holds. */
const STATE_EDIT = /^self\.state\.(\w+)\.(append|extend)\(([\s\S]+)\)$/;
/** `answer = input("prompt")` (`.strip()`, `.lower()` after it), or a state field set so. */
const INPUT = /^(?:(\w+)|self\.state\.(\w+))\s*=\s*input\s*\(([\s\S]*?)\)((?:\s*\.\s*(?:strip|lower)\s*\(\s*\))*)$/;
/** Ending the program: in a router, ending the flow. */
const EXIT = /^(?:sys\.)?(?:exit|quit)\s*\([^)]*\)$/;
const DROPPED = /^(print|logger\.\w+|logging\.\w+|log\.\w+|console\.print)\s*\(/;

class Unmappable extends Error {
  constructor(
    readonly at: PyStatement,
    readonly why: string,
  ) {
    super(why);
  }
}

/** Reads one method of a Flow class into steps (or says which statement could not be read). */
export function readMethodSteps(
  fn: PyFunction,
  isRouter: boolean,
  fieldType: (field: string) => string | undefined = () => undefined,
  /** Names a guard's continue route must not take (method names and route labels of the flow). */
  reserved: ReadonlySet<string> = new Set(),
): MethodReading {
  const lines = fn.body.split('\n');
  const header = statements(lines[0] + '\n', fn.line)[0];
  const body = statements(lines.slice(1).join('\n'), fn.line + 1);
  void header;
  const reading: MethodReading = { steps: [], crews: [], dropped: 0 };
  const scope: ExprScope = { input: new Set(fn.params.slice(1).filter((p) => p !== 'self')), results: new Set(), locals: new Map() };
  const reader = new StepReader(reading, scope, isRouter, fn, fieldType, reserved);
  try {
    reader.read(body);
  } catch (error) {
    if (error instanceof Unmappable) {
      reading.unsupported = { line: error.at.line, python: flatten(error.at), why: error.why };
      reading.steps = [];
      return reading;
    }
    throw error;
  }
  return reading;
}

function flatten(s: PyStatement, indent = ''): string {
  return [indent + s.text, ...s.block.map((b) => flatten(b, `${indent}    `))].join('\n');
}

/** The value a state field gets from `field op value` (`=`, `+=`, `-=`, a list's append or extend). */
function assigned(field: string, op: string, value: string): string {
  if (op === '=') return value;
  if (op === '+=') return /^(-?\d+(\.\d+)?|".*")$/.test(value) ? `${field} + ${value}` : `__add(${field}, ${value})`;
  if (op === 'append') return `[...(${field} ?? []), ${value}]`;
  if (op === 'extend') return `[...(${field} ?? []), ...${value}]`;
  return `${field} ${op[0]} ${value}`;
}

/** Pending state assignments and locals, flushed into one step (set_state when they are text, else a script). */
interface Pending {
  python: string[];
  assigns: { field: string; op: string; expr: string; at: PyStatement }[];
  locals: { name: string; expr: string }[];
}

class StepReader {
  private pending: Pending = { python: [], assigns: [], locals: [] };
  /** Expression of the current output when it is not the input (a content step made it). */
  private routed = false;

  constructor(
    private readonly out: MethodReading,
    private readonly scope: ExprScope,
    private readonly isRouter: boolean,
    private readonly fn: PyFunction,
    private readonly fieldType: (field: string) => string | undefined,
    private readonly reserved: ReadonlySet<string>,
  ) {}


  read(python: PyStatement[]): void {
    const body = this.isRouter ? this.withExits(python) : python;
    for (let i = 0; i < body.length; i += 1) {
      const s = body[i]!;
      if (i === 0 && pyString(s.text) !== undefined) {
        this.out.description = pyString(s.text)!.trim().replace(/\s+/g, ' ') || undefined;
        continue;
      }
      if (s.text === 'pass' || DROPPED.test(s.text)) {
        if (s.text !== 'pass') this.out.dropped += 1;
        continue;
      }
      if (/^(if|elif)\b/.test(s.text) && this.isRouter) {
        const chain: PyStatement[] = [s];
        // `if a: return "x"` followed by `if b: return "y"` is an elif chain too (each branch returns).
        while (i + 1 < body.length && /^(elif\b|else\s*:|if\b)/.test(body[i + 1]!.text) && !chain.some((c) => /^else\b/.test(c.text))) chain.push(body[(i += 1)]!);
        const tail = body.slice(i + 1);
        if (tail.some((t) => !/^return\b/.test(t.text) && !DROPPED.test(t.text))) {
          // `if …: return "label"` guards before the rest of the router: a guard step, then the rest.
          if (chain.some((c) => /^else\b/.test(c.text))) throw new Unmappable(s, 'statements after a routing if-chain with an else');
          this.route(chain, undefined, this.continueLabel());
          continue;
        }
        const last = tail.find((t) => /^return\b/.test(t.text));
        this.route(chain, last);
        return;
      }
      if (/^return\b/.test(s.text)) {
        this.returned(s);
        if (i + 1 < body.length) throw new Unmappable(body[i + 1]!, 'code after return');
        return;
      }
      const kick = KICKOFF.exec(s.text);
      if (kick) {
        this.crew(s, kick);
        continue;
      }
      if (/^async\s+def\b/.test(s.text) || /=\s*asyncio\.(?:Bounded)?Semaphore\(/.test(s.text) || /asyncio\.(?:gather|create_task)\s*\(|\.kickoff_async\s*\(/.test(s.text)) {
        const used = this.forEach(body, i, s);
        i = used;
        continue;
      }
      if (/^with\s+open\s*\(/.test(s.text)) {
        this.fileWrite(s);
        continue;
      }
      const pathWrite = /^(?:pathlib\.)?Path\s*\(([\s\S]*?)\)\s*\.\s*write_text\s*\(([\s\S]*)\)$/.exec(s.text);
      if (pathWrite) {
        this.pathWrite(s, pathWrite);
        continue;
      }
      const asked = INPUT.exec(s.text);
      if (asked) {
        this.askInput(s, asked, body.slice(0, i));
        continue;
      }
      const loop = /^for\s+(\w+(?:\s*,\s*\w+)?)\s+in\s+([\s\S]+):$/.exec(s.text);
      if (loop) {
        this.sequentialLoop(s, loop[1]!, loop[2]!);
        continue;
      }
      const edit = STATE_EDIT.exec(s.text);
      if (edit && splitTopLevel(edit[3]!).length === 1) {
        this.pending.python.push(s.text);
        this.pending.assigns.push({ field: edit[1]!, op: edit[2]!, expr: edit[3]!.trim(), at: s });
        continue;
      }
      const set = STATE_SET.exec(s.text);
      if (set) {
        this.pending.python.push(s.text);
        // STATE_SET: group 1 (`.field`) or group 3 (`["field"]`) always matched, and groups 4 and 5.
        this.pending.assigns.push({ field: (set[1] ?? set[3])!, op: set[4]!, expr: set[5]!.trim(), at: s });
        continue;
      }
      const local = /^(\w+)\s*=(?!=)\s*([\s\S]+)$/.exec(s.text);
      if (local && s.block.length === 0) {
        this.pending.python.push(s.text);
        this.pending.locals.push({ name: local[1]!, expr: local[2]!.trim() });
        this.scope.locals.set(local[1]!, local[2]!.trim());
        continue;
      }
      throw new Unmappable(s, 'not a statement this importer can read');
    }
    this.flush();
    if (this.isRouter && !this.routed) throw new Unmappable(body[body.length - 1] ?? { text: this.fn.name, line: this.fn.line, indent: 0, block: [] }, 'a router that returns no route label');
  }

  // ---- steps --------------------------------------------------------------------------------------

  private push(step: FlowStep, keepsInput: boolean): void {
    this.out.steps.push(step);
    if (!keepsInput) {
      this.scope.input.clear();
      this.scope.results.clear();
    }
  }

  /** Pending assignments become a set_state (all text) or a script. */
  private flush(extra?: { js: string[]; python: string[] }): void {
    const p = this.pending;
    if (p.assigns.length === 0 && !extra) {
      this.pending = { python: [], assigns: [], locals: [] };
      return;
    }
    const templates = extra ? undefined : p.assigns.map((a) => (a.op === '=' ? toTemplate(a.expr, this.scope) : undefined));
    if (templates && templates.every((t) => t !== undefined) && new Set(p.assigns.map((a) => a.field)).size === p.assigns.length && p.assigns.every((a) => this.textual(a))) {
      this.push({ body: { type: 'set_state', set: Object.fromEntries(p.assigns.map((a, j) => [a.field, templates[j]!])) } }, true);
    } else {
      const js: string[] = [];
      try {
        for (const l of p.locals) js.push(`const __local_${l.name} = ${toJs(l.expr, this.scope)};`);
        for (const a of p.assigns) {
          const value = toJs(a.expr, this.scope);
          js.push(`state.${a.field} = ${assigned(`state.${a.field}`, a.op, value)};`);
        }
      } catch (error) {
        if (error instanceof UnsupportedPython) throw new Unmappable(p.assigns[0]?.at ?? { text: p.python[0] ?? '', line: this.fn.line, indent: 0, block: [] }, `${error.message} cannot be transpiled`);
        throw error;
      }
      // Each step stands alone once exported: a crew result or a parameter is the step's `input` there.
      const python = [...p.python, ...(extra?.python ?? [])].map((l) => this.asStepInput(l));
      const lines = [...js, ...(extra?.js ?? ['return input;'])];
      // The Python is data beside the code, never text inside it (a line terminator in a Python comment
      // could end a JavaScript comment): export writes it back as it was.
      const code = [...preludeFor(lines), ...lines].join('\n');
      this.push({ body: { type: 'script', code, ...(python.length > 0 ? { python: python.join('\n') } : {}) } }, !extra || extra.js.every((l) => !/^return (?!input;|\{ output: input,)/.test(l)));
    }
    this.pending = { python: [], assigns: [], locals: [] };
  }

  /** Python with the crew result's and the parameter's names written as the step's `input`. */
  private asStepInput(line: string): string {
    let out = line;
    for (const name of this.scope.results) {
      out = out
        .replace(new RegExp(`\\b${name}\\.raw\\b`, 'g'), 'input')
        .replace(new RegExp(`\\b${name}\\.(?:pydantic|json_dict)\\b`, 'g'), 'json.loads(input)')
        .replace(new RegExp(`\\b${name}(?=\\s*\\[)`, 'g'), 'json.loads(input)')
        .replace(new RegExp(`(?<![.\\w])${name}\\b`, 'g'), 'input');
    }
    for (const name of this.scope.input) if (name !== 'input') out = out.replace(new RegExp(`(?<![.\\w])${name}\\b`, 'g'), 'input');
    return out;
  }

  /** Whether a template (always text) keeps the field's type: the schema says text, or the value is text. */
  private textual(a: { field: string; expr: string }): boolean {
    const type = this.fieldType(a.field);
    if (type !== undefined) return type === 'string';
    if (toRef(a.expr, this.scope) === 'input') return true;
    return /^[fFrRuU]{0,2}["']/.test(a.expr.trim());
  }

  private crew(s: PyStatement, kick: RegExpExecArray): void {
    this.flush();
    // KICKOFF's groups 2 (class) and 4 (arguments) are not optional; group 1 (the variable) is.
    const [, variable] = kick;
    const className = kick[2]!;
    const kw = callArguments(kick[4]!).keywords;
    const inputs: Record<string, string> = {};
    const raw = kw.get('inputs');
    if (raw !== undefined) {
      const dict = raw.trim();
      if (!dict.startsWith('{') || !dict.endsWith('}')) throw new Unmappable(s, 'crew inputs that are not a dict literal');
      for (const item of splitTopLevel(dict.slice(1, -1))) {
        const [k, ...v] = splitTopLevel(item, ':');
        const key = k !== undefined ? pyString(k) : undefined;
        const template = v.length > 0 ? toTemplate(v.join(':'), this.scope) : undefined;
        if (key === undefined || template === undefined) throw new Unmappable(s, `the crew input ${item.trim()} is not a string, f-string or state value`);
        inputs[key] = template;
      }
    }
    for (const key of kw.keys()) if (key !== 'inputs') throw new Unmappable(s, `kickoff(${key}=…)`);
    this.out.crews.push({ className, line: s.line });
    this.push({ body: { type: 'crew', file: `crew:${className}`, ...(Object.keys(inputs).length > 0 ? { inputs } : {}) } }, false);
    if (variable) this.scope.results.add(variable);
    this.scope.locals.delete(variable ?? '');
  }

  /** `with open("x.md", "w") as f: f.write(expr)` → the step's outputFile (a step giving `expr` first when needed). */
  private fileWrite(s: PyStatement): void {
    const m = /^with\s+open\s*\(([\s\S]*)\)\s+as\s+(\w+)\s*:$/.exec(s.text);
    if (!m || s.block.length !== 1) throw new Unmappable(s, 'a file write other than `with open(path, "w") as f: f.write(…)`');
    const { positional, keywords } = callArguments(m[1]!);
    const mode = pyString(positional[1] ?? keywords.get('mode') ?? '"r"');
    const write = new RegExp(`^${m[2]}\\.write\\(([\\s\\S]*)\\)$`).exec(s.block[0]!.text);
    if (mode !== 'w' || positional[0] === undefined || !write) throw new Unmappable(s, 'a file write other than `with open(path, "w") as f: f.write(…)`');
    this.writeFile(s, positional[0], write[1]!);
  }

  /** `Path("x.md").write_text(expr)` (also `pathlib.Path`, with `encoding=`): a file write as `with open` is. */
  private pathWrite(s: PyStatement, m: RegExpExecArray): void {
    const [target, ...moreTargets] = callArguments(m[1]!).positional;
    const args = callArguments(m[2]!);
    const [content, ...moreContent] = args.positional;
    if (target === undefined || moreTargets.length > 0 || content === undefined || moreContent.length > 0 || [...args.keywords.keys()].some((k) => k !== 'encoding')) throw new Unmappable(s, 'a Path(…).write_text(…) other than `Path(path).write_text(text)`');
    this.writeFile(s, target, content);
  }

  private writeFile(s: PyStatement, pathExpr: string, contentExpr: string): void {
    const path = toTemplate(pathExpr, this.scope);
    if (path === undefined) throw new Unmappable(s, `a file path (${pathExpr.trim()}) that is not a string, f-string or state value`);
    const content = this.normalized(contentExpr);
    this.flush();
    const ref = toRef(content, this.scope);
    const previous = this.out.steps.at(-1);
    if (ref === 'input' && previous !== undefined && !previous.outputFile) {
      previous.outputFile = path;
      return;
    }
    let js: string;
    try {
      js = toJs(content, this.scope);
    } catch (error) {
      if (error instanceof UnsupportedPython) throw new Unmappable(s, `the content written (${content}): ${error.message} cannot be transpiled`);
      throw error;
    }
    const code = [...preludeFor([`__str(${js})`]), `return __str(${js});`].join('\n');
    this.push({ body: { type: 'script', code, python: `output = ${content}` }, outputFile: path }, ref === 'input');
    this.scope.locals.set('output', content);
    this.current = content;
  }

  /** The current output's expression when a step made it (not the input). */
  private current: string | undefined;
  /** Local names `normalized` replaced by their expression (their assignment is part of the step). */
  private readonly substituted = new Set<string>();

  /** Drops pending locals that a step's own line stands for (`output = x` then `return output`). */
  private dropSubstituted(): void {
    for (const name of this.substituted) {
      this.pending.locals = this.pending.locals.filter((l) => l.name !== name);
      this.pending.python = this.pending.python.filter((l) => !new RegExp(`^${name}\\s*=(?!=)`).test(l));
    }
    this.substituted.clear();
  }

  /** `str(x)` / `list(x)` around a name, and a local name, are the expression they stand for. */
  private normalized(expr: string): string {
    let e = expr.trim();
    for (let n = 0; n < 10; n += 1) {
      const wrapped = /^(?:str|list)\(([\s\S]*)\)$/.exec(e);
      if (wrapped && splitTopLevel(wrapped[1]!).length === 1) e = wrapped[1]!.trim();
      else if (/^\w+$/.test(e) && this.scope.locals.has(e) && !this.scope.input.has(e) && !this.scope.results.has(e) && !this.gathered.has(e)) {
        this.substituted.add(e);
        e = this.scope.locals.get(e)!;
      }
      else break;
    }
    return e;
  }

  private returned(s: PyStatement): void {
    const value = s.text.replace(/^return\b/, '').trim();
    const bare = value.replace(/^(?:str|list)\((\w+)\)$/, '$1');
    if (this.gathered.has(bare) || (this.scope.locals.get(bare) !== undefined && this.gathered.has(this.scope.locals.get(bare)!))) return this.flush();
    if (this.isRouter) {
      const label = pyString(value);
      if (label === undefined) throw new Unmappable(s, 'a router returning something other than a route label');
      this.route([], s);
      return;
    }
    if (value === '' || value === 'None') return this.flush();
    const e = this.normalized(value);
    const ref = toRef(e, this.scope);
    if (ref === 'input' || (this.current !== undefined && e === this.current) || this.gathered.has(e)) return this.flush();
    let js: string;
    try {
      js = toJs(e, this.scope);
    } catch (error) {
      if (error instanceof UnsupportedPython) throw new Unmappable(s, `the value returned (${value}): ${error.message} cannot be transpiled`);
      throw error;
    }
    this.dropSubstituted();
    this.pending.python.push(`output = ${e}`);
    this.flush({ js: [`return ${js};`], python: [] });
    this.current = e;
  }

  /** The route a guard takes when none of its tests holds: `<method>_continue`, numbered if that is taken. */
  private continueLabel(): string {
    const used = new Set([...this.reserved, ...[...this.fn.body.matchAll(/(["'])([A-Za-z0-9_-]+)\1/g)].map((m) => m[2]!), ...this.out.steps.flatMap((st) => st.routes ?? [])]);
    let label = `${this.fn.name}_continue`;
    for (let n = 2; used.has(label); n += 1) label = `${this.fn.name}_continue${n}`;
    return label;
  }

  /**
   * An if/elif/else chain of `return "label"` (and a final return) → rules, or a script for richer tests.
   * With `guard`, the chain is a router's early guard: no test holding takes the `guard` route (the rest
   * of the method listens to it).
   */
  private route(chain: PyStatement[], last: PyStatement | undefined, guard?: string): void {
    const branches: { cond?: string; label: string; at: PyStatement }[] = [];
    for (const c of chain) {
      const ret = c.block.filter((b) => !DROPPED.test(b.text));
      const [only] = ret;
      const label = only !== undefined && ret.length === 1 && /^return\b/.test(only.text) ? pyString(only.text.replace(/^return\b/, '')) : undefined;
      if (label === undefined) throw new Unmappable(c, 'a routing branch that does more than return a route label');
      const cond = /^(?:if|elif)\s+([\s\S]+):$/.exec(c.text)?.[1];
      branches.push({ cond, label, at: c });
    }
    const fallback = last ? pyString(last.text.replace(/^return\b/, '')) : undefined;
    if (last && fallback === undefined) throw new Unmappable(last, 'a router returning something other than a route label');
    const elseBranch = branches.find((b) => b.cond === undefined);
    const dflt = guard ?? elseBranch?.label ?? fallback;
    const routes = [...new Set([...branches.map((b) => b.label), ...(fallback !== undefined ? [fallback] : []), ...(guard !== undefined ? [guard] : [])])];
    if (guard === undefined) this.routed = true;
    else {
      // Reported at the chain's first statement (the clashing branch is one of them, so there is one).
      const clash = branches.find((b) => b.label === guard);
      if (clash) throw new Unmappable(chain[0] ?? clash.at, `a guard returning "${guard}", the label its continuation takes`);
    }
    const conditional = branches.filter((b) => b.cond !== undefined);
    const predicates = conditional.map((b) => toPredicate(b.cond!, this.scope));
    const python = [...chain.map((c) => flatten(c)), ...(last ? [last.text] : guard !== undefined ? [`return ${JSON.stringify(guard)}`] : [])].flatMap((t) => t.split('\n'));
    const continues = guard !== undefined ? { continueRoute: guard } : {};
    // State set before the tests is its own step (set_state or script); the router after it is rules.
    if (dflt !== undefined && this.pending.locals.length === 0 && predicates.every((p) => p !== undefined)) {
      this.flush();
      this.push({ body: { type: 'rules', rules: conditional.map((b, j) => ({ when: predicates[j] as FlowPredicate, route: b.label })), default: dflt }, routes, ...continues }, true);
      return;
    }
    const js: string[] = [];
    for (const b of conditional) {
      try {
        js.push(`if (__truthy(${toJs(b.cond!, this.scope)})) return { output: input, route: ${JSON.stringify(b.label)} };`);
      } catch (error) {
        // Reported at the chain's first statement (b is one of them, so there is one).
        if (error instanceof UnsupportedPython) throw new Unmappable(chain[0] ?? b.at, `the test ${error.message} cannot be transpiled`);
        throw error;
      }
    }
    js.push(dflt !== undefined ? `return { output: input, route: ${JSON.stringify(dflt)} };` : 'return { output: input };');
    this.flush({ js, python });
    // flush with extra code always pushes a script step: the one the routes belong to.
    const step = this.out.steps.at(-1);
    if (step) Object.assign(step, { routes, ...continues });
  }

  // ---- input() and exit() ---------------------------------------------------------------------------

  /** `exit()` in a router ends the flow: a route (`<method>_exit`) that nothing listens to. */
  private withExits(body: PyStatement[]): PyStatement[] {
    let label: string | undefined;
    const map = (list: PyStatement[]): PyStatement[] =>
      list.map((st) => {
        if (EXIT.test(st.text)) {
          label ??= this.freeLabel(`${this.fn.name}_exit`);
          return { ...st, text: `return ${JSON.stringify(label)}` };
        }
        return st.block.length > 0 ? { ...st, block: map(st.block) } : st;
      });
    return map(body);
  }

  /** A label no method, route or string of the method uses (numbered when taken). */
  private freeLabel(base: string): string {
    const used = new Set([...this.reserved, ...[...this.fn.body.matchAll(/(["'])([A-Za-z0-9_-]+)\1/g)].map((m) => m[2]!), ...this.out.steps.flatMap((st) => [...(st.routes ?? []), ...(st.name ? [st.name] : [])])]);
    let label = base;
    for (let n = 2; used.has(label); n += 1) label = `${base}${n}`;
    return label;
  }

  /**
   * `answer = input("Choose: ")`: a human feedback step asking what the method printed just before (a
   * numbered menu) and the prompt; the answer is the step's state field `<method>_input_feedback`, which
   * the statements after it read for `answer` (a router's tests become rules on it).
   */
  private askInput(s: PyStatement, m: RegExpExecArray, before: PyStatement[]): void {
    // INPUT's groups 3 (the arguments) and 4 (the calls after it, maybe none) always take part.
    const [, local, field] = m;
    const after = m[4]!;
    const { positional, keywords } = callArguments(m[3]!);
    if (keywords.size > 0 || positional.length > 1) throw new Unmappable(s, 'input() with more than a prompt');
    const printed: string[] = [];
    for (let j = before.length - 1; j >= 0; j -= 1) {
      const p = /^print\s*\(([\s\S]*)\)$/.exec(before[j]!.text);
      if (!p) break;
      const line = callArguments(p[1]!).positional.length === 1 ? toTemplate(p[1]!, this.scope) : undefined;
      if (line === undefined) break;
      printed.unshift(line);
    }
    const prompt = positional[0] !== undefined ? toTemplate(positional[0], this.scope) : '';
    if (prompt === undefined) throw new Unmappable(s, `an input() prompt (${positional[0]}) that is not a string, f-string or state value`);
    const message = [...printed, prompt.trim()].filter((l) => l !== '').join('\n') || 'Your answer';
    this.flush();
    const name = this.freeLabel(`${this.fn.name}_input`);
    this.push({ body: { type: 'human_feedback', message, learn: false }, name }, true);
    // `.strip()` / `.lower()` after input() apply to the answer where it is read.
    const answer = `self.state.${name}_feedback${after.replace(/\s+/g, '')}`;
    if (local) {
      this.scope.locals.set(local, answer);
      // A plain answer is a reference (rules can test it); one with .strip() is computed in the script that reads it.
      if (after.trim() !== '') {
        this.pending.python.push(`${local} = ${answer}`);
        this.pending.locals.push({ name: local, expr: answer });
      }
    } else {
      this.pending.python.push(s.text);
      this.pending.assigns.push({ field: field!, op: '=', expr: answer, at: s });
    }
  }

  // ---- for each ------------------------------------------------------------------------------------

  /** Names bound to a gather's results. */
  private readonly gathered = new Set<string>();

  /**
   * A fan-out: an optional `asyncio.Semaphore(n)`, a nested `async def` helper that kicks off a crew
   * for one item, and `asyncio.gather` over the helper (or the kickoff) for each item of a state list,
   * its results assigned to a state field. Returns the index of the last statement used.
   */
  private forEach(body: PyStatement[], start: number, first: PyStatement): number {
    this.flush();
    let concurrency: number | undefined;
    let helper: { name: string; params: string[]; at: PyStatement } | undefined;
    let gatherAt = -1;
    let i = start;
    let listExpr: string | undefined;
    for (; i < body.length; i += 1) {
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
        this.scope.locals.set(tasks[1]!, `__tasks__`);
        continue;
      }
      if (/asyncio\.gather\s*\(/.test(s.text)) {
        gatherAt = i;
        break;
      }
      throw new Unmappable(s, 'a statement between a fan-out helper and its asyncio.gather');
    }
    const g = body[gatherAt];
    if (!g) throw new Unmappable(first, 'an async helper with no asyncio.gather over it');
    const gm = /^(?:(self\.state\.(\w+)|\w+)\s*=\s*)?await\s+asyncio\.gather\s*\(\s*\*\s*([\s\S]+?)\s*\)$/.exec(g.text);
    if (!gm) throw new Unmappable(g, 'an asyncio.gather other than `await asyncio.gather(*[… for x in self.state.items])`');
    const spread = gm[3]!;
    const comprehension = /^\[[\s\S]*\]$/.test(spread) ? spread : this.scope.locals.get(spread) === '__tasks__' ? listExpr : undefined;
    const comp = comprehension ? /^\[\s*([\s\S]+?)\s+for\s+(\w+(?:\s*,\s*\w+)?)\s+in\s+([\s\S]+?)\s*\]$/.exec(comprehension) : null;
    if (!comp) throw new Unmappable(g, 'an asyncio.gather over something other than a list comprehension');
    let call = comp[1]!;
    const vars = comp[2]!;
    let source = comp[3]!;
    let index: string | undefined;
    let item: string;
    const enumerated = /^enumerate\(([\s\S]+)\)$/.exec(source.trim());
    if (enumerated) {
      const [a, b] = vars.split(',').map((v) => v.trim());
      if (!b) throw new Unmappable(g, 'enumerate() with one loop variable');
      index = a;
      item = b;
      source = enumerated[1]!;
    } else {
      if (vars.includes(',')) throw new Unmappable(g, 'a loop over pairs');
      item = vars.trim();
    }
    const items = toTemplate(source.trim(), this.scope);
    if (items === undefined || !/^\{(state|input)[^}]*\}$/.test(items)) throw new Unmappable(g, `the list ${source.trim()} is not a state list`);
    call = call.trim().replace(/^asyncio\.(?:create_task|ensure_future)\(([\s\S]*)\)$/, '$1').trim();

    const itemScope: ExprScope = { input: new Set(), results: new Set(), locals: new Map(), item, index };
    let inner: { className: string; args: string; line: number };
    const direct = KICKOFF.exec(call);
    if (direct) inner = { className: direct[2]!, args: direct[4]!, line: g.line };
    else {
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
      Object.assign(itemScope, helperScope);
      inner = this.helperKickoff(helper.at);
    }
    const kw = callArguments(inner.args).keywords;
    const inputs: Record<string, string> = {};
    const raw = kw.get('inputs')?.trim();
    if (raw !== undefined) {
      if (!raw.startsWith('{')) throw new Unmappable(g, 'crew inputs that are not a dict literal');
      for (const entry of splitTopLevel(raw.slice(1, -1))) {
        const [k, ...v] = splitTopLevel(entry, ':');
        const key = k !== undefined ? pyString(k) : undefined;
        const template = v.length > 0 ? toTemplate(v.join(':'), itemScope) : undefined;
        if (key === undefined || template === undefined) throw new Unmappable(helper?.at ?? g, `the crew input ${entry.trim()} is not a string, f-string, item or state value`);
        inputs[key] = template;
      }
    }
    let into = gm[2];
    let last = gatherAt;
    const resultName = gm[1] && !gm[2] ? gm[1] : undefined;
    if (resultName) {
      this.gathered.add(resultName);
      const next = body[gatherAt + 1];
      const assign = next ? /^self\.state\.(\w+)\s*=\s*(?:list\()?\s*(\w+)\s*\)?$/.exec(next.text) : null;
      if (assign && assign[2] === resultName) {
        into = assign[1];
        last = gatherAt + 1;
      }
    }
    this.out.crews.push({ className: inner.className, line: inner.line });
    this.push(
      {
        body: {
          type: 'for_each',
          items,
          body: { type: 'crew', file: `crew:${inner.className}`, ...(Object.keys(inputs).length > 0 ? { inputs } : {}) },
          concurrency: concurrency ?? 4,
          into: into ?? `${this.fn.name}_results`,
        },
      },
      false,
    );
    if (resultName) this.scope.locals.set(resultName, `self.state.${into ?? `${this.fn.name}_results`}`);
    return last;
  }

  /**
   * `for x in self.state.items:` (or `for i, x in enumerate(…)`) kicking off one crew per item, one after
   * another, each result appended to a state list: a for_each of concurrency 1 into `<method>_results`,
   * then the list extended by those results (so a list that already held items keeps them, as with append).
   */
  private sequentialLoop(s: PyStatement, vars: string, source: string): void {
    const block = s.block.filter((b) => !DROPPED.test(b.text));
    this.out.dropped += s.block.length - block.length;
    let index: string | undefined;
    let item = vars.trim();
    let list = source.trim();
    const enumerated = /^enumerate\(([\s\S]+)\)$/.exec(list);
    if (enumerated) {
      const [a, b] = vars.split(',').map((v) => v.trim());
      if (!b) throw new Unmappable(s, 'enumerate() with one loop variable');
      [index, item, list] = [a, b, enumerated[1]!.trim()];
    } else if (vars.includes(',')) throw new Unmappable(s, 'a loop over pairs other than enumerate(…)');
    const items = toTemplate(list, this.scope);
    if (items === undefined || !/^\{(state|input)[^}]*\}$/.test(items)) throw new Unmappable(s, `a for loop over ${list}, which is not a state list`);
    const [first, second] = block;
    const kick = first ? KICKOFF.exec(first.text) : null;
    if (!first || !kick || kick[3] !== 'kickoff') throw new Unmappable(s, 'a for loop whose body does not start with a crew kickoff (`result = SomeCrew().crew().kickoff(inputs={…})`)');
    const result = kick[1];
    // What the body keeps of each result: `self.state.list.append(result.raw)` (or `str(result)`, `result`).
    const kept = result && second !== undefined && block.length === 2 ? new RegExp(`^self\\.state\\.(\\w+)\\.append\\(\\s*(?:${result}\\.raw|str\\(\\s*${result}\\s*\\)|${result})\\s*\\)$`).exec(second.text) : null;
    if (!kept || second === undefined) throw new Unmappable(second ?? s, 'a for loop that does more with each crew result than append its text to a state list (`self.state.items.append(result.raw)`)');
    const itemScope: ExprScope = { input: new Set(), results: new Set(), locals: new Map(), item, index };
    const inputs: Record<string, string> = {};
    const kw = callArguments(kick[4]!).keywords;
    for (const key of kw.keys()) if (key !== 'inputs') throw new Unmappable(first, `kickoff(${key}=…)`);
    const raw = kw.get('inputs')?.trim();
    if (raw !== undefined) {
      if (!raw.startsWith('{') || !raw.endsWith('}')) throw new Unmappable(first, 'crew inputs that are not a dict literal');
      for (const entry of splitTopLevel(raw.slice(1, -1))) {
        const [k, ...v] = splitTopLevel(entry, ':');
        const key = k !== undefined ? pyString(k) : undefined;
        const template = v.length > 0 ? toTemplate(v.join(':'), itemScope) : undefined;
        if (key === undefined || template === undefined) throw new Unmappable(first, `the crew input ${entry.trim()} is not a string, f-string, item or state value`);
        inputs[key] = template;
      }
    }
    this.flush();
    const taken = new Set(this.out.steps.flatMap((st) => (st.body.type === 'for_each' ? [st.body.into] : [])));
    let into = `${this.fn.name}_results`;
    for (let n = 2; taken.has(into); n += 1) into = `${this.fn.name}_results${n}`;
    const className = kick[2]!;
    this.out.crews.push({ className, line: first.line });
    this.push({ body: { type: 'for_each', items, body: { type: 'crew', file: `crew:${className}`, ...(Object.keys(inputs).length > 0 ? { inputs } : {}) }, concurrency: 1, into } }, false);
    const field = kept[1]!;
    const extend = `self.state.${field}.extend(self.state.${into})`;
    this.pending.python.push(extend);
    this.pending.assigns.push({ field, op: 'extend', expr: `self.state.${into}`, at: second });
  }

  /** The kickoff inside `async def helper(...)` (under `async with semaphore:` or not), returning its text. */
  private helperKickoff(def: PyStatement): { className: string; args: string; line: number } {
    let block = def.block;
    const [only] = block;
    if (only !== undefined && block.length === 1 && /^async\s+with\s+\w+\s*:$/.test(only.text)) block = only.block;
    let found: { className: string; args: string; line: number; variable?: string } | undefined;
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
}
