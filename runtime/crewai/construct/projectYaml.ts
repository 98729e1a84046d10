import { lstatSync, readFileSync, realpathSync } from 'node:fs';
import { isMap, LineCounter, parseDocument } from 'yaml';
import { CrewAiYamlInvalid } from '../crewAiErrors';
import { insideProject } from '../findProject';

/** YAML files larger than this are not read (a downloaded project is untrusted). */
const MAX_YAML_BYTES = 1024 * 1024;
/** Aliases a config file may use: a crew's agents and tasks need a handful; a "billion laughs" file needs thousands. */
const MAX_ALIASES = 200;

/** How deep a config file's collections may nest: agents and tasks need three or four levels. */
const MAX_DEPTH = 64;

/** A YAML file of the project, read: its value and the 1-based line of each top-level key. */
export interface ProjectYaml {
  value: unknown;
  lines: Map<string, number>;
}

/**
 * Reads a YAML file inside the project folder `root` (`label`: its path as shown). Refuses a file that
 * is, or leads through, a symbolic link out of the project, a file over 1 MB, and an alias bomb; every
 * problem is a CrewAiYamlInvalid naming the file (and line and column when known).
 */
export function readProjectYaml(root: string, file: string, label: string): ProjectYaml {
  if (!insideProject(root, file)) {
    let target = file;
    try {
      target = realpathSync(file);
    } catch {
      // a dangling link: named as it is
    }
    const link = (() => {
      try {
        return lstatSync(file).isSymbolicLink();
      } catch {
        return false;
      }
    })();
    throw new CrewAiYamlInvalid(label, `${link ? 'a symbolic link' : 'a path'} leading out of the project folder (to ${target}); the importer reads only files inside the project`);
  }
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new CrewAiYamlInvalid(label, `cannot read the file: ${(error as Error).message}`);
  }
  if (text.length > MAX_YAML_BYTES) throw new CrewAiYamlInvalid(label, `the file is ${text.length} characters long; the importer reads YAML files up to ${MAX_YAML_BYTES}`);
  // Refused before the parser recurses into it: `[[[[…` nested thousands deep.
  const deep = flowNesting(text);
  if (deep) throw new CrewAiYamlInvalid(label, `collections nest more than ${MAX_DEPTH} levels deep; the importer reads YAML nested up to ${MAX_DEPTH} levels`, deep.line, deep.column);
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: true, uniqueKeys: true });
  const first = doc.errors[0];
  if (first) {
    const pos = first.linePos?.[0];
    throw new CrewAiYamlInvalid(label, first.message.split(' at line ')[0]!.split('\n')[0]!, pos?.line, pos?.col);
  }
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: MAX_ALIASES });
  } catch (error) {
    // yaml's ReferenceError for an alias count over the limit: a file that expands exponentially.
    throw new CrewAiYamlInvalid(label, `the YAML expands too far through its aliases (more than ${MAX_ALIASES} alias uses; an alias bomb?): ${(error as Error).message}`);
  }
  // Block nesting (indentation) or an alias of its own ancestor: nothing downstream walks an unbounded value.
  if (tooDeep(value)) throw new CrewAiYamlInvalid(label, `collections nest more than ${MAX_DEPTH} levels deep (or an alias refers to its own parent); the importer reads YAML nested up to ${MAX_DEPTH} levels`);
  const lines = new Map<string, number>();
  if (isMap(doc.contents)) {
    for (const pair of doc.contents.items) {
      const key = String((pair.key as { value?: unknown } | null)?.value ?? pair.key);
      const offset = (pair.key as { range?: [number, number, number] } | null)?.range?.[0] ?? 0;
      lines.set(key, lineCounter.linePos(offset).line);
    }
  }
  return { value, lines };
}

/**
 * Where flow collections (`[`, `{`) first nest deeper than MAX_DEPTH, if they do: a linear scan that
 * skips quoted strings and comments (a bracket inside them opens nothing).
 */
function flowNesting(text: string): { line: number; column: number } | undefined {
  let depth = 0;
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\n') {
      line++;
      lineStart = i + 1;
    } else if (c === '"' || c === "'") {
      // A quoted scalar ends at its closing quote ('' and \" escape one inside).
      for (i++; i < text.length; i++) {
        if (text[i] === '\n') {
          line++;
          lineStart = i + 1;
        } else if (c === '"' && text[i] === '\\') i++;
        else if (text[i] === c) {
          if (c === "'" && text[i + 1] === "'") i++;
          else break;
        }
      }
    } else if (c === '#' && (i === 0 || /\s/.test(text[i - 1]!))) {
      while (i + 1 < text.length && text[i + 1] !== '\n') i++;
    } else if (c === '[' || c === '{') {
      if (++depth > MAX_DEPTH) return { line, column: i - lineStart + 1 };
    } else if ((c === ']' || c === '}') && depth > 0) depth--;
  }
  return undefined;
}

/** Whether a parsed value nests deeper than MAX_DEPTH (a value whose alias makes it contain itself does). */
function tooDeep(value: unknown): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth >= MAX_DEPTH) return true;
    for (const child of v instanceof Map ? v.values() : Object.values(v)) stack.push([child, depth + 1]);
  }
  return false;
}
