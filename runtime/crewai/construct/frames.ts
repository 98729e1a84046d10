import type { PyExpr, PyModule } from '../python/pyAst';
import type { InputVal, Loc, ObjVal, Val } from './values';

/** The names in scope while the evaluator reads a module's top level or a function's body. */
export interface Frame {
  mod: PyModule;
  /** A function's locals; at a module's top level, the module's globals. */
  locals: Map<string, Val>;
  /** The module's globals (the same map as `locals` at the top level). */
  globals: Map<string, Val>;
  /**
   * Reading code no entry point reached (a function evaluated on its own, its parameters unknown): a
   * test whose value is unknown takes its first branch, and a loop over an unknown list runs its body
   * once with its variables unknown, so what the body builds is still found.
   */
  standalone: boolean;
  depth: number;
  returned?: { value: Val };
  /** The class whose method this is (for `super()` and class attributes). */
  cls?: import('./values').ClassRef;
}

/** A crew (or agent, or LLM) kicked off somewhere the evaluator read. */
export interface Kickoff {
  target: ObjVal;
  /** `inputs={...}` as given. */
  inputs?: Val;
  /** Positional argument (an agent's or LLM's prompt). */
  prompt?: Val;
  at: Loc;
  method: string;
}

/** What the evaluator met along the way that the mapping needs: every object made and every kickoff. */
export interface EvalRecord {
  objects: ObjVal[];
  kickoffs: Kickoff[];
  /** Inputs made by `input("…")` calls, by name. */
  prompts: Map<string, InputVal>;
}

/** A synthetic name expression (for inputs named after a parameter). */
export function nameExpr(id: string, at?: { line: number; col?: number }): PyExpr {
  const line = at?.line ?? 0;
  return { k: 'name', id, line, col: at?.col ?? 0, endLine: line, endCol: 0, start: 0, end: 0 };
}

/** A name for a run-time value, from the Python that gives it (`chapter.title` → `chapter_title`). */
export function inputName(text: string): string {
  const name = text
    .replace(/^self\.state\./, '')
    .replace(/^self\./, '')
    .replace(/\(\s*\)/g, '')
    .replace(/[^A-Za-z0-9_]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 40);
  return /^[A-Za-z_]/.test(name) ? name : `value_${name || 'x'}`;
}
