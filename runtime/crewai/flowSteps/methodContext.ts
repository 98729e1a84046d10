import type { ExprScope } from '../flowExpression';
import { splitTopLevel, type PyFunction, type PyStatement } from '../pythonSource';
import type { FlowStep, MethodReading } from './flowStep';

/** Pending state assignments and locals, flushed into one step (set_state when they are text, else a script). */
export interface Pending {
  python: string[];
  assigns: { field: string; op: string; expr: string; at: PyStatement }[];
  locals: { name: string; expr: string }[];
}

export function noPending(): Pending {
  return { python: [], assigns: [], locals: [] };
}

/** What reading one Flow method keeps as it goes: the steps so far, the names in scope, pending edits. */
export class MethodContext {
  pending: Pending = noPending();
  /** Whether a router's routing step was read (a router must end in one). */
  routed = false;
  /** The current output's expression when a step made it (not the input). */
  current: string | undefined;
  /** Local names `normalized` replaced by their expression (their assignment is part of the step). */
  readonly substituted = new Set<string>();
  /** Names bound to a gather's results. */
  readonly gathered = new Set<string>();

  constructor(
    readonly out: MethodReading,
    readonly scope: ExprScope,
    readonly isRouter: boolean,
    readonly fn: PyFunction,
    readonly fieldType: (field: string) => string | undefined,
    readonly reserved: ReadonlySet<string>,
  ) {}

  push(step: FlowStep, keepsInput: boolean): void {
    this.out.steps.push(step);
    if (!keepsInput) {
      this.scope.input.clear();
      this.scope.results.clear();
    }
  }

  /** Drops pending locals that a step's own line stands for (`output = x` then `return output`). */
  dropSubstituted(): void {
    for (const name of this.substituted) {
      this.pending.locals = this.pending.locals.filter((l) => l.name !== name);
      this.pending.python = this.pending.python.filter((l) => !new RegExp(`^${name}\\s*=(?!=)`).test(l));
    }
    this.substituted.clear();
  }

  /** `str(x)` / `list(x)` around a name, and a local name, are the expression they stand for. */
  normalized(expr: string): string {
    let e = expr.trim();
    for (let n = 0; n < 10; n += 1) {
      const wrapped = /^(?:str|list)\(([\s\S]*)\)$/.exec(e);
      const local = this.scope.locals.get(e);
      if (wrapped && splitTopLevel(wrapped[1]!).length === 1) e = wrapped[1]!.trim();
      else if (/^\w+$/.test(e) && local !== undefined && !this.scope.input.has(e) && !this.scope.results.has(e) && !this.gathered.has(e)) {
        this.substituted.add(e);
        e = local;
      }
      else break;
    }
    return e;
  }

  /** The route a guard takes when none of its tests holds: `<method>_continue`, numbered if that is taken. */
  continueLabel(): string {
    const used = new Set([...this.reserved, ...this.methodStrings(), ...this.out.steps.flatMap((st) => st.routes ?? [])]);
    let label = `${this.fn.name}_continue`;
    for (let n = 2; used.has(label); n += 1) label = `${this.fn.name}_continue${n}`;
    return label;
  }

  /** A label no method, route or string of the method uses (numbered when taken). */
  freeLabel(base: string): string {
    const used = new Set([...this.reserved, ...this.methodStrings(), ...this.out.steps.flatMap((st) => [...(st.routes ?? []), ...(st.name ? [st.name] : [])])]);
    let label = base;
    for (let n = 2; used.has(label); n += 1) label = `${base}${n}`;
    return label;
  }

  /** The label-like string literals of the method's Python. */
  private methodStrings(): string[] {
    return [...this.fn.body.matchAll(/(["'])([A-Za-z0-9_-]+)\1/g)].map((m) => m[2]!);
  }
}
