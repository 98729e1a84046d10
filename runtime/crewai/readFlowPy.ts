import { blankComments, functions, pyString, statements, type PyFunction } from './pythonSource';
import { schemaFromPydantic } from './pydanticSchema';
import { toValue } from './flowExpr/exprValue';

/** A CrewAI `class X(Flow[State])` as read (not run) from main.py. */
export interface FlowPy {
  className: string;
  /** 1-based line of the `class`. */
  line: number;
  docstring?: string;
  /** The state model's name (`Flow[BookState]`, or `initial_state = BookState`); none for a dict state. */
  stateClass?: string;
  /** `@persist` on the class or on a method. */
  persist: boolean;
  /** The class's methods (nested helpers are part of their method's body). */
  methods: PyFunction[];
  /** `initial_state = {...}` of a dict-state flow. */
  initialDict?: Record<string, unknown>;
}

/** The state model: JSON schema (when pydantic's types are simple enough), initial values, and what could not be read. */
export interface FlowStatePy {
  schema?: Record<string, unknown>;
  initial: Record<string, unknown>;
  /** Fields whose default is not a literal, with their line. */
  unread: { field: string; line: number; text: string }[];
}

/** Every Flow subclass of a Python file, in file order. */
export function readFlowClasses(source: string): FlowPy[] {
  const src = blankComments(source);
  const lines = src.split('\n');
  const out: FlowPy[] = [];
  lines.forEach((line, index) => {
    const m = /^class\s+(\w+)\s*\(\s*Flow\s*(?:\[\s*(\w+)\s*\])?\s*\)\s*:/.exec(line);
    if (!m) return;
    let end = index + 1;
    for (; end < lines.length; end += 1) {
      const l = lines[end]!;
      if (l.trim() !== '' && !/^\s/.test(l) && !/^[)\]}]/.test(l)) break;
    }
    // Decorators of the class end right above it (`@persist()`).
    let persist = false;
    for (let j = index - 1; j >= 0; j -= 1) {
      const above = lines[j]!;
      if (!(above.trim() === '' || /^\s*@/.test(above) || /^\s*[)\]}]/.test(above))) break;
      if (/^\s*@(?:\w+\.)*persist\b/.test(above)) persist = true;
    }
    // Keep the class's own lines (blank the rest, so line numbers hold).
    const own = lines.map((l, i) => (i > index && i < end ? l : '')).join('\n');
    const methods = functions(own).filter((f) => f.indent === firstIndent(lines, index, end));
    if (methods.some((f) => f.decorators.includes('persist'))) persist = true;
    const doc = /^\s*("""|''')([\s\S]*?)\1/.exec(lines.slice(index + 1, end).join('\n'));
    const initial = /^[ \t]+initial_state\s*(?::[^=\n]*)?=\s*([\s\S]*)$/m.exec(own);
    let stateClass = m[2];
    let initialDict: Record<string, unknown> | undefined;
    if (initial) {
      const text = initial[1]!.split('\n')[0]!.trim();
      if (/^\w+$/.test(text)) stateClass = stateClass ?? text;
      else {
        const open = own.indexOf('{', initial.index);
        const value = open >= 0 ? toValue(own.slice(open, closeOf(own, open) + 1)) : { ok: false as const };
        if (value.ok && value.value !== null && typeof value.value === 'object' && !Array.isArray(value.value)) initialDict = value.value as Record<string, unknown>;
      }
    }
    out.push({
      className: m[1]!,
      line: index + 1,
      docstring: doc ? pyString(doc[0].trim())?.trim() || undefined : undefined,
      stateClass,
      persist,
      methods,
      initialDict,
    });
  });
  return out;
}

function firstIndent(lines: string[], start: number, end: number): number {
  for (const line of lines.slice(start + 1, end)) if (line.trim() !== '') return /^\s*/.exec(line)![0].length;
  return 4;
}

function closeOf(src: string, open: number): number {
  let depth = 0;
  for (let i = open; i < src.length; i += 1) {
    if (src[i] === '{') depth += 1;
    else if (src[i] === '}') {
      depth -= 1;
      if (depth === 0) return i;
    }
  }
  return src.length - 1;
}

/**
 * The state model `class <name>(BaseModel):` of the source: its schema (pydantic's rules, as for task
 * outputs; a field whose default is None may be null) and its defaults as initial values.
 */
export function readFlowState(source: string, className: string): FlowStatePy | undefined {
  const src = blankComments(source);
  const m = new RegExp(`^class\\s+${className}\\s*\\(\\s*(?:pydantic\\.)?BaseModel\\s*\\)\\s*:\\s*\\n`, 'm').exec(src);
  if (!m) return undefined;
  const startLine = src.slice(0, m.index).split('\n').length;
  const rest = src.slice(m.index + m[0].length).split('\n');
  const end = rest.findIndex((l) => l.trim() !== '' && !/^\s/.test(l));
  const initial: Record<string, unknown> = {};
  const unread: FlowStatePy['unread'] = [];
  // Logical lines: a default may span several (a list of leads).
  for (const st of statements(rest.slice(0, end < 0 ? rest.length : end).join('\n'), startLine + 1)) {
    const field = /^(\w+)\s*:\s*([^=]+?)(?:\s*=\s*([\s\S]+))?\s*$/.exec(st.text);
    if (!field) continue;
    const name = field[1]!;
    const value = field[3]?.trim();
    if (value === undefined) continue;
    const fieldCall = /^(?:pydantic\.)?Field\s*\(([\s\S]*)\)$/.exec(value);
    const callArgs = fieldCall?.[1];
    const dflt = callArgs !== undefined ? /(?:^|,)\s*default\s*=\s*([^,]+)/.exec(callArgs)?.[1] ?? (/^\s*([^=,]+?)\s*(,|$)/.exec(callArgs)?.[1]) : value;
    const factory = callArgs !== undefined ? /default_factory\s*=\s*(list|dict)\b/.exec(callArgs)?.[1] : undefined;
    if (factory) {
      initial[name] = factory === 'list' ? [] : {};
      continue;
    }
    if (dflt === undefined || dflt.trim() === '...') continue;
    const read = toValue(dflt);
    if (read.ok) initial[name] = read.value;
    else unread.push({ field: name, line: st.line, text: dflt.trim() });
  }
  const schema = schemaFromPydantic(source, className);
  if (schema) {
    const properties = schema.properties as Record<string, Record<string, unknown>>;
    // A field defaulting to None may hold None.
    for (const [name, value] of Object.entries(initial)) {
      const prop = properties[name];
      if (value === null && prop && typeof prop.type === 'string') prop.type = [prop.type, 'null'];
    }
  }
  return { schema, initial, unread };
}
