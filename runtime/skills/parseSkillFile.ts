import { basename, extname } from 'node:path';
import type { Skill } from './skill';

/**
 * A skill from the text of a .md file. Front matter (`---` lines at the top, `key: value` pairs) may
 * give `name` and `description`; without them the name is the file name (no extension) and the
 * description is the first non-blank line (a heading's `#`s dropped). The instructions are the rest.
 */
export function parseSkillFile(text: string, path: string): Skill {
  const body = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  const front = /^---\n([\s\S]*?)\n---[ \t]*(?:\n|$)/.exec(body);
  const fields = new Map<string, string>();
  if (front) {
    for (const line of front[1]!.split('\n')) {
      const m = /^\s*([A-Za-z_][\w-]*)\s*:\s*(.*)$/.exec(line);
      if (m) fields.set(m[1]!.toLowerCase(), unquote(m[2]!.trim()));
    }
  }
  const instructions = (front ? body.slice(front[0].length) : body).trim();
  const firstLine = instructions.split('\n').find((l) => l.trim() !== '') ?? '';
  return {
    name: fields.get('name') || basename(path, extname(path)),
    description: fields.get('description') ?? firstLine.replace(/^#+\s*/, '').trim(),
    instructions,
    origin: path,
  };
}

function unquote(value: string): string {
  const m = /^(["'])(.*)\1$/.exec(value);
  return m ? m[2]! : value;
}
