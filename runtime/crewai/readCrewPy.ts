import { blankComments, callArguments, findCall, functions, matchingBracket, pyString, type PyFunction } from './pythonSource';

/** A CrewAI `@CrewBase` crew class as read (not run) from crew.py. */
export interface CrewPy {
  className?: string;
  docstring?: string;
  agentsConfig?: string;
  tasksConfig?: string;
  /** Imported name → module it comes from (`from .tools.custom_tool import MyTool`). */
  imports: Map<string, string>;
  /**
   * `name = Expr(...)` assignments (tool instances, LLM objects, knowledge sources): module-level ones,
   * then the class's own (class attributes, `self.name = …` and local variables of its methods).
   */
  assignments: Map<string, string>;
  /** 1-based line of each class-level assignment. */
  assignmentLines: Map<string, number>;
  agents: CrewPyMember[];
  tasks: CrewPyMember[];
  /** @llm methods: name → LLM(...) argument text. */
  llms: Map<string, string>;
  /** @tool methods: name → returned expression. */
  tools: Map<string, string>;
  crew?: { keywords: Map<string, string>; line: number };
  /** Python hooks with no Crewdeck equivalent: @before_kickoff, @after_kickoff, @callback… */
  hooks: { decorator: string; name: string; line: number }[];
}

/** An @agent or @task method: the config key it reads and the keyword arguments it passes. */
export interface CrewPyMember {
  method: string;
  configKey?: string;
  keywords: Map<string, string>;
  line: number;
}

const HOOK_DECORATORS = ['before_kickoff', 'after_kickoff', 'callback', 'cache_handler', 'output_json', 'output_pydantic'];

/** The first (or only) @CrewBase class of crew.py. */
export function readCrewPy(source: string): CrewPy {
  return readCrewPyClasses(source)[0] ?? readCrewClass(source, source);
}

/**
 * Every @CrewBase class of crew.py, in file order (a project may run several crews one after another).
 * Each is read from the source with the other classes blanked out (line numbers are kept); imports and
 * module-level assignments are shared by all of them.
 */
export function readCrewPyClasses(source: string): CrewPy[] {
  const lines = blankComments(source).split('\n');
  const starts: number[] = [];
  lines.forEach((line, i) => {
    if (/^@CrewBase\b/.test(line)) starts.push(i);
  });
  const ranges = starts.map((start) => {
    let classLine = start + 1;
    while (classLine < lines.length && !/^class\s/.test(lines[classLine])) classLine += 1;
    let end = classLine + 1;
    for (; end < lines.length; end += 1) {
      const l = lines[end];
      if (l.trim() !== '' && !/^\s/.test(l) && !/^[)\]}]/.test(l)) break;
    }
    return { start, end };
  });
  const sourceLines = source.split('\n');
  return ranges.map((own) => {
    const inside = (i: number, r: { start: number; end: number }) => i >= r.start && i < r.end;
    const kept = sourceLines.map((line, i) => (ranges.some((r) => r !== own && inside(i, r)) ? '' : line)).join('\n');
    const classOnly = sourceLines.map((line, i) => (inside(i, own) ? line : '')).join('\n');
    return readCrewClass(kept, classOnly);
  });
}

/** `source`: the module with only this class's body; `classSource`: the class alone (for its own assignments). */
function readCrewClass(source: string, classSource: string): CrewPy {
  const src = blankComments(source);
  const classMatch = /@CrewBase\s*\n\s*class\s+(\w+)[^:]*:\s*\n(\s*("""|\'\'\')([\s\S]*?)\3)?/.exec(src);
  const result: CrewPy = {
    className: classMatch?.[1],
    docstring: (classMatch?.[2] ? pyString(classMatch[2].trim())?.trim() : undefined) || undefined,
    agentsConfig: configPath(src, 'agents_config'),
    tasksConfig: configPath(src, 'tasks_config'),
    imports: readImports(src),
    assignments: new Map([...readAssignments(src, false), ...readAssignments(blankComments(classSource), true)]),
    assignmentLines: new Map([...readAssignmentLines(blankComments(classSource))]),
    agents: [],
    tasks: [],
    llms: new Map(),
    tools: new Map(),
    hooks: [],
  };
  for (const fn of functions(source)) {
    const has = (d: string) => fn.decorators.includes(d);
    if (has('agent')) result.agents.push(member(fn, 'Agent', 'agents_config'));
    else if (has('task')) result.tasks.push(member(fn, 'Task', 'tasks_config'));
    else if (has('crew')) {
      const call = findCall(fn.body, ['Crew']);
      result.crew = { keywords: call ? callArguments(call.args).keywords : new Map(), line: fn.line };
    } else if (has('llm')) {
      const call = findCall(fn.body, ['LLM', 'ChatOpenAI']);
      if (call) result.llms.set(fn.name, call.args);
    } else if (has('tool')) {
      const ret = /\breturn\s+([\s\S]*)$/.exec(fn.body);
      if (ret) result.tools.set(fn.name, ret[1].trim());
    }
    for (const d of fn.decorators) if (HOOK_DECORATORS.includes(d)) result.hooks.push({ decorator: d, name: fn.name, line: fn.line });
  }
  return result;
}

function member(fn: PyFunction, callee: string, configAttr: string): CrewPyMember {
  const call = findCall(fn.body, [callee]);
  const keywords = call ? callArguments(call.args).keywords : new Map<string, string>();
  const config = keywords.get('config');
  keywords.delete('config');
  const key = config ? new RegExp(`self\\.${configAttr}\\s*\\[\\s*(['"])([^'"]+)\\1\\s*\\]`).exec(config)?.[2] : undefined;
  return { method: fn.name, configKey: key, keywords, line: fn.line };
}

function configPath(src: string, attr: string): string | undefined {
  // Horizontal whitespace only: `^\\s*` under the m flag is quadratic on a file of blank lines.
  const m = new RegExp(`^[ \\t]*${attr}[ \\t]*(?::[^=\n]*)?=[ \\t]*(.+)$`, 'm').exec(src);
  return m ? pyString(m[1]) : undefined;
}

function readImports(src: string): Map<string, string> {
  const imports = new Map<string, string>();
  for (const m of src.matchAll(/^[ \t]*from[ \t]+([\w.]+)[ \t]+import[ \t]+(\([^)]*\)|[^\n]+)/gm)) {
    for (const part of m[2].replace(/[()]/g, '').split(',')) {
      const name = part.trim().split(/\s+as\s+/).pop()?.trim();
      if (name) imports.set(name, m[1]);
    }
  }
  return imports;
}

function readAssignments(src: string, indented: boolean): Map<string, string> {
  const found = new Map<string, string>();
  const re = indented ? /^[ \t]+(?:self\.)?(\w+)\s*(?::[^=\n]*)?=\s*([A-Za-z_][\w.]*\s*\()/gm : /^(\w+)\s*(?::[^=\n]*)?=\s*([A-Za-z_][\w.]*\s*\()/gm;
  for (const m of src.matchAll(re)) {
    // The call assigned is the one that opens right here; its bracket pairs come from one scan of `src`.
    const open = m.index + m[0].length - 1;
    const close = matchingBracket(src, open);
    if (close >= 0 && !found.has(m[1])) found.set(m[1], `${m[2].replace(/\s*\($/, '')}(${src.slice(open + 1, close)})`);
  }
  return found;
}

function readAssignmentLines(src: string): Map<string, number> {
  const found = new Map<string, number>();
  for (const m of src.matchAll(/^[ \t]+(?:self\.)?(\w+)\s*(?::[^=\n]*)?=\s*[A-Za-z_]/gm)) {
    if (!found.has(m[1])) found.set(m[1], src.slice(0, m.index).split('\n').length);
  }
  return found;
}
