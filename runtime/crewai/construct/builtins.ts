import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { PyCall } from '../python/pyAst';
import type { Ev } from './evalTypes';
import { derived, runtime, strOf, textParts } from './valueOps';
import type { Frame } from './frames';
import { readProjectYaml } from './projectYaml';
import { fromPlain, lit, textOf, UNKNOWN, type CallArgs, type Val } from './values';

/**
 * Python's builtins and the standard library calls construction code makes (reading config files,
 * environment variables, paths), modelled without running them; undefined for anything else.
 */
export function callBuiltin(ev: Ev, frame: Frame, qual: string, args: CallArgs, e: PyCall): Val | undefined {
  const callee = qual.replace(/^builtins\./, '');
  return pythonBuiltin(ev, frame, callee, qual, args, e) ?? libraryCall(ev, frame, callee, qual, args, e);
}

/** Python's builtins (str, len, range, input…); undefined for any other name. */
function pythonBuiltin(ev: Ev, frame: Frame, callee: string, qual: string, args: CallArgs, e: PyCall): Val | undefined {
  const [a, b] = args.pos;
  switch (callee) {
    case 'str':
      return a ? (strOf(a) !== undefined ? lit(strOf(a)!) : a.t === 'text' || a.t === 'input' ? a : runtime(frame, e, [a])) : lit('');
    case 'int':
    case 'float':
      return a?.t === 'lit' && a.v !== null && !Number.isNaN(Number(a.v)) ? lit(qual.endsWith('int') ? Math.trunc(Number(a.v)) : Number(a.v)) : runtime(frame, e, args.pos);
    case 'len':
      return a?.t === 'list' ? lit(a.items.length) : a?.t === 'dict' ? lit(a.entries.size) : textOf(a) !== undefined ? lit(textOf(a)!.length) : runtime(frame, e, args.pos);
    case 'list':
    case 'tuple':
      return a?.t === 'list' ? { t: 'list', items: [...a.items] } : a === undefined ? { t: 'list', items: [] } : runtime(frame, e, args.pos);
    case 'dict':
      return a?.t === 'dict' ? { t: 'dict', entries: new Map(a.entries) } : { t: 'dict', entries: new Map(args.kw) };
    case 'range': {
      const nums = args.pos.map((x) => (x.t === 'lit' && typeof x.v === 'number' ? x.v : undefined));
      if (nums.some((n) => n === undefined) || nums.length === 0) return runtime(frame, e, args.pos);
      const [start, stop, step] = nums.length === 1 ? [0, nums[0]!, 1] : [nums[0]!, nums[1]!, nums[2] ?? 1];
      const items: Val[] = [];
      for (let i = start; step > 0 ? i < stop : i > stop; i += step) if (items.push(lit(i)) >= 100) break;
      return { t: 'list', items };
    }
    case 'enumerate':
      return a?.t === 'list' ? { t: 'list', items: a.items.map((x, i): Val => ({ t: 'list', items: [lit(i), x], tuple: true })) } : runtime(frame, e, args.pos);
    case 'zip':
      return a?.t === 'list' && b?.t === 'list' ? { t: 'list', items: a.items.slice(0, b.items.length).map((x, i): Val => ({ t: 'list', items: [x, b.items[i]!], tuple: true })) } : runtime(frame, e, args.pos);
    case 'print':
    case 'load_dotenv':
    case 'dotenv.load_dotenv':
    case 'warnings.filterwarnings':
      return lit(null);
    case 'isinstance':
    case 'hasattr':
      return runtime(frame, e, args.pos);
    case 'input': {
      const prompt = a ? strOf(a) ?? '' : '';
      const value: Val = { t: 'input', name: 'user_input', prompt, bind: e, mod: frame.mod, at: ev.loc(frame.mod, e) };
      return value;
    }
    default:
      return undefined;
  }
}

/** The standard library calls construction code makes: files, paths, environment variables, YAML and JSON, dedent. */
function libraryCall(ev: Ev, frame: Frame, callee: string, qual: string, args: CallArgs, e: PyCall): Val | undefined {
  const [a, b] = args.pos;
  switch (callee) {
    case 'open':
      return a ? fileOf(ev, frame, a, 'file') : UNKNOWN('open() without a path');
    case 'pathlib.Path':
    case 'Path':
      return a ? fileOf(ev, frame, a, 'path') : { t: 'path', abs: ev.src.root };
    case 'os.path.join': {
      const first = args.pos[0];
      const parts = args.pos.slice(1).map(textOf);
      const base = first?.t === 'path' ? first.abs : first ? textOf(first) : undefined;
      return base !== undefined && parts.every((p) => p !== undefined) ? { t: 'path', abs: resolvePath(ev, join(base, ...(parts as string[]))) } : runtime(frame, e, args.pos);
    }
    case 'os.path.dirname':
      return a?.t === 'path' ? { t: 'path', abs: dirname(a.abs) } : runtime(frame, e, args.pos);
    case 'os.path.abspath':
    case 'os.path.realpath':
      return a?.t === 'path' ? a : a ? fileOf(ev, frame, a, 'path') : UNKNOWN('a path');
    case 'os.getenv':
    case 'os.environ.get': {
      const name = a ? textOf(a) : undefined;
      return name !== undefined ? { t: 'env', name, ...(b ? { default: b } : {}) } : UNKNOWN('an environment variable named by code');
    }
    case 'yaml.safe_load':
    case 'yaml.load':
    case 'yaml.full_load':
    case 'json.load':
      return loadConfig(ev, frame, a, qual.startsWith('json') ? 'json' : 'yaml');
    case 'json.loads': {
      const text = a ? textOf(a) : undefined;
      if (text === undefined) return runtime(frame, e, args.pos);
      try {
        return fromPlain(JSON.parse(text));
      } catch {
        return UNKNOWN('json.loads of text that is not JSON');
      }
    }
    case 'textwrap.dedent':
    case 'inspect.cleandoc':
      return a ? onText(a, qual.endsWith('cleandoc') ? (t) => dedent(t).trim() : dedent) ?? runtime(frame, e, args.pos) : UNKNOWN('dedent of nothing');
    case 'getattr':
      return undefined;
    default:
      return undefined;
  }
}

/** Python's textwrap.dedent: the whitespace every non-blank line starts with is removed. */
export function dedent(text: string): string {
  const lines = text.split('\n');
  const indents = lines.filter((l) => l.trim() !== '').map((l) => /^[ \t]*/.exec(l)![0]);
  let common = indents[0] ?? '';
  for (const i of indents) while (!i.startsWith(common)) common = common.slice(0, -1);
  return lines.map((l) => (l.trim() === '' ? '' : l.slice(common.length))).join('\n');
}

/**
 * A text transformation applied to text whose run-time parts stay as they are (each stands in as one
 * private-use character while the text is transformed).
 */
export function onText(v: Val, f: (text: string) => string): Val | undefined {
  const parts = textParts(v);
  if (!parts) return undefined;
  const holes: Val[] = [];
  const joined = parts.map((p) => (typeof p === 'string' ? p : String.fromCharCode(0xe000 + holes.push(p) - 1))).join('');
  if (holes.length > 0x800) return undefined;
  const out = f(joined);
  const pieces = out.split(/([\ue000-\ue7ff])/);
  return { t: 'text', parts: pieces.filter((p) => p !== '').map((p) => (/^[\ue000-\ue7ff]$/.test(p) ? (holes[p.charCodeAt(0) - 0xe000] as Extract<Val, { t: 'input' }>) : p)) };
}

/** A path from text (relative to the project folder, where `crewai run` runs) or a path value. */
function fileOf(ev: Ev, frame: Frame, v: Val, as: 'file' | 'path'): Val {
  if (v.t === 'path' || v.t === 'file') return { t: as, abs: v.abs };
  const text = textOf(v);
  if (text === undefined) return v.t === 'input' ? derived(frame, v.bind ?? { k: 'name', id: v.name, line: 0, col: 0, endLine: 0, endCol: 0, start: 0, end: 0 }) : UNKNOWN('a path computed at run time');
  return { t: as, abs: resolvePath(ev, text) };
}

function resolvePath(ev: Ev, text: string): string {
  return isAbsolute(text) ? text : resolve(ev.src.root, text);
}

/** `yaml.safe_load(open("config/agents.yaml"))`: the file's content, read only inside the project. */
function loadConfig(ev: Ev, frame: Frame, from: Val | undefined, kind: 'yaml' | 'json'): Val {
  if (!from || (from.t !== 'file' && from.t !== 'path')) return UNKNOWN(`${kind} loaded from something other than a file of the project`);
  const label = relative(ev.src.root, from.abs).split(sep).join('/');
  try {
    if (kind === 'json') return fromPlain(JSON.parse(readFileSync(from.abs, 'utf8')));
    const read = readProjectYaml(ev.src.root, from.abs, label);
    const value = fromPlain(read.value);
    if (value.t === 'dict') {
      value.yaml = label;
      for (const [k, x] of value.entries) if (x.t === 'dict') Object.assign(x, { at: { file: label, line: read.lines.get(k) ?? 1 }, key: k });
    }
    return value;
  } catch (error) {
    void frame;
    ev.yamlErrors.push(error as Error);
    return UNKNOWN(`${label}: ${(error as Error).message}`);
  }
}
