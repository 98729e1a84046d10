import type { PyClass, PyConst, PyDef, PyExpr, PyModule } from '../python/pyAst';

/**
 * What the importer knows about a Python value without running the code (construct/evaluator.ts):
 * literals, text with holes (an f-string over values only known at run time), lists and dicts, objects
 * of classes outside the project (`Agent(...)`, `Crew(...)`, `SerperDevTool(...)`) with the arguments
 * they were made with, instances of the project's own classes, references to its classes and functions,
 * values given at run time (`input`: a parameter, `input()`, `self.state.x`), and `unknown`.
 */

/** Where something is in the project: a file relative to the project folder and a 1-based line. */
export interface Loc {
  file: string;
  line: number;
  col?: number;
}

/** A value known only at run time; `bind` is the Python expression that gives it, where there is one. */
export interface InputVal {
  t: 'input';
  /** The crew input's name (a placeholder `{name}` in the crew's text). */
  name: string;
  bind?: PyExpr;
  /** The module `bind` is written in. */
  mod?: PyModule;
  /** The prompt of `input("…")` (its name is the variable it is first assigned to). */
  prompt?: string;
  named?: boolean;
  at?: Loc;
  /** Read from what a kickoff returned (`items.raw`, `result.pydantic.score`): that kickoff and the access. */
  from?: ResultAccess;
}

/** A crew result and what was read from it: `[]` the result itself, `['raw']`, `['pydantic', 'score']`. */
export interface ResultAccess {
  of: ObjVal;
  /** Where the kickoff is (it names one kickoff among several of one crew). */
  at?: Loc;
  access: string[];
}

export type TextPart = string | InputVal;

export interface CallArgs {
  pos: Val[];
  kw: Map<string, Val>;
}

/** An object made by calling a class that is not the project's own (CrewAI, crewai_tools, LangChain…). */
export interface ObjVal {
  t: 'obj';
  /** The class's name as the code imports it (`Agent`, `SerperDevTool`, `ChatOpenAI`). */
  cls: string;
  /** Its module (`crewai`, `crewai_tools`, `langchain_openai`), when imported from one. */
  module?: string;
  args: CallArgs;
  at: Loc;
  id: number;
  /** The name it was first bound to (a variable, attribute or @agent/@task method). */
  hint?: string;
  /** The @agent / @task / @tool / @llm method of a @CrewBase class that made it, and that instance. */
  member?: { kind: string; name: string; owner: InstVal };
  attrs: Map<string, Val>;
}

export interface ClassRef {
  name: string;
  def: PyClass;
  mod: PyModule;
}

export interface InstVal {
  t: 'inst';
  cls: ClassRef;
  attrs: Map<string, Val>;
  id: number;
  /** @agent/@task/@tool/@llm method results of a @CrewBase instance (CrewAI memoizes them). */
  memo: Map<string, Val>;
}

export type Val =
  | { t: 'lit'; v: PyConst }
  | { t: 'text'; parts: TextPart[] }
  | { t: 'list'; items: Val[]; tuple?: boolean }
  /** `yaml`: a mapping read from this YAML file (relative path); `at`: where it is (a config entry's line). */
  | { t: 'dict'; entries: Map<string, Val>; yaml?: string; at?: Loc; key?: string }
  | ObjVal
  | InstVal
  | { t: 'class'; ref: ClassRef }
  | { t: 'func'; def: PyDef; mod: PyModule; self?: Val; cls?: ClassRef }
  | { t: 'lambda'; e: Extract<PyExpr, { k: 'lambda' }>; mod: PyModule }
  /** A name imported from outside the project: `crewai.Agent`, `os.getenv`, `Process.sequential`. */
  | { t: 'ext'; qual: string }
  | { t: 'module'; qual: string; mod?: PyModule }
  | { t: 'env'; name: string; default?: Val }
  | { t: 'path'; abs: string }
  | { t: 'file'; abs: string }
  /** What a crew's (or agent's) kickoff returned. */
  | { t: 'result'; of: ObjVal; at?: Loc }
  | InputVal
  | { t: 'unknown'; why: string; at?: Loc; missing?: MissingKey };

/** A config key the code loads and its YAML file lacks (`self.agents_config['x']`). */
export interface MissingKey {
  key: string;
  /** The YAML file, relative to the project folder. */
  file: string;
  /** The keys the file does define. */
  keys: string[];
}

export const UNKNOWN = (why: string, at?: Loc): Val => ({ t: 'unknown', why, ...(at ? { at } : {}) });
export const lit = (v: PyConst): Val => ({ t: 'lit', v });

/** The plain text a value is, when it is fully known. */
export function textOf(v: Val | undefined): string | undefined {
  if (!v) return undefined;
  if (v.t === 'lit') return typeof v.v === 'string' ? v.v : undefined;
  if (v.t === 'text' && v.parts.every((p) => typeof p === 'string')) return v.parts.join('');
  return undefined;
}

/** A value as crew text: literals as written, run-time values as `{placeholders}`; undefined when not text. */
export function templateOf(v: Val | undefined): { text: string; inputs: InputVal[] } | undefined {
  if (!v) return undefined;
  if (v.t === 'lit') return v.v === null || typeof v.v === 'boolean' ? undefined : { text: String(v.v), inputs: [] };
  if (v.t === 'input') return { text: `{${v.name}}`, inputs: [v] };
  if (v.t === 'text') {
    const inputs = v.parts.filter((p): p is InputVal => typeof p !== 'string');
    return { text: v.parts.map((p) => (typeof p === 'string' ? p : `{${p.name}}`)).join(''), inputs };
  }
  return undefined;
}

/** A Python value's plain JSON form, when it is made only of literals, lists and dicts. */
export function plainOf(v: Val | undefined): unknown {
  if (!v) return undefined;
  if (v.t === 'lit') return v.v;
  if (v.t === 'text') return textOf(v);
  if (v.t === 'list') {
    const items = v.items.map(plainOf);
    return items.every((x) => x !== undefined) ? items : undefined;
  }
  if (v.t === 'dict') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of v.entries) {
      const p = plainOf(x);
      if (p === undefined) return undefined;
      out[k] = p;
    }
    return out;
  }
  return undefined;
}

/** A JSON value (from YAML) as a Val. */
export function fromPlain(value: unknown): Val {
  if (value === null || value === undefined) return lit(null);
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return lit(value);
  if (Array.isArray(value)) return { t: 'list', items: value.map(fromPlain) };
  if (typeof value === 'object') return { t: 'dict', entries: new Map(Object.entries(value as Record<string, unknown>).map(([k, x]) => [k, fromPlain(x)])) };
  return lit(String(value));
}

/** The truth of a value when it is known: literals, and lists/dicts by their length. */
export function truthOf(v: Val): boolean | undefined {
  if (v.t === 'lit') return Boolean(v.v);
  if (v.t === 'text') return v.parts.length > 0 && v.parts.some((p) => typeof p !== 'string' || p !== '') ? (v.parts.every((p) => typeof p === 'string') ? true : undefined) : false;
  if (v.t === 'list') return v.items.length > 0;
  if (v.t === 'dict') return v.entries.size > 0;
  if (v.t === 'obj' || v.t === 'inst' || v.t === 'class' || v.t === 'func' || v.t === 'path') return true;
  return undefined;
}

/** The class name an `obj` or `ext` value stands for (`crewai.Agent` → `Agent`). */
export function classNameOf(v: Val | undefined): string | undefined {
  if (v?.t === 'obj') return v.cls;
  if (v?.t === 'ext') return v.qual.split('.').pop();
  return undefined;
}
