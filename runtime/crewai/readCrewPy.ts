import { blankComments, callArguments, findCall, functions, pyString, type PyFunction } from './pythonSource';

/** A CrewAI `@CrewBase` crew class as read (not run) from crew.py. */
export interface CrewPy {
  className?: string;
  docstring?: string;
  agentsConfig?: string;
  tasksConfig?: string;
  /** Imported name → module it comes from (`from .tools.custom_tool import MyTool`). */
  imports: Map<string, string>;
  /** Module-level `name = Expr(...)` assignments (tool instances, LLM objects). */
  assignments: Map<string, string>;
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

export function readCrewPy(source: string): CrewPy {
  const src = blankComments(source);
  const classMatch = /@CrewBase\s*\n\s*class\s+(\w+)[^:]*:\s*\n(\s*("""|''')([\s\S]*?)\3)?/.exec(src);
  const result: CrewPy = {
    className: classMatch?.[1],
    docstring: (classMatch?.[2] ? pyString(classMatch[2].trim())?.trim() : undefined) || undefined,
    agentsConfig: configPath(src, 'agents_config'),
    tasksConfig: configPath(src, 'tasks_config'),
    imports: readImports(src),
    assignments: readAssignments(src),
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
  const m = new RegExp(`^\\s*${attr}\\s*(?::[^=]*)?=\\s*(.+)$`, 'm').exec(src);
  return m ? pyString(m[1]) : undefined;
}

function readImports(src: string): Map<string, string> {
  const imports = new Map<string, string>();
  for (const m of src.matchAll(/^\s*from\s+([\w.]+)\s+import\s+(\([^)]*\)|[^\n]+)/gm)) {
    for (const part of m[2].replace(/[()]/g, '').split(',')) {
      const name = part.trim().split(/\s+as\s+/).pop()?.trim();
      if (name) imports.set(name, m[1]);
    }
  }
  return imports;
}

function readAssignments(src: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const m of src.matchAll(/^(\w+)\s*(?::[^=\n]*)?=\s*([A-Za-z_][\w.]*\s*\()/gm)) {
    const call = findCall(src.slice(m.index + m[0].length - m[2].length), [m[2].replace(/\s*\($/, '')]);
    if (call) found.set(m[1], `${call.callee}(${call.args})`);
  }
  return found;
}
