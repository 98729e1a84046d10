import type { KnowledgeSource } from '../../shared/model/crew';
import { callArguments, findCall, pyLiteral, pyString, splitTopLevel } from './pythonSource';

/**
 * CrewAI knowledge source classes whose content Crewdeck's `knowledge` holds: file sources (read from
 * the project's `knowledge/` folder, as CrewAI does) and strings. Other sources (Excel, Docling, custom
 * BaseKnowledgeSource subclasses) are reported.
 */
const FILE_SOURCES = new Set(['PDFKnowledgeSource', 'TextFileKnowledgeSource', 'CSVKnowledgeSource', 'JSONKnowledgeSource', 'FileKnowledgeSource']);
const FILE_TYPES = /\.(txt|md|markdown|csv|json|pdf)$/i;

export type KnowledgeReading = { ok: true; sources: KnowledgeSource[] } | { ok: false; why: string };

/**
 * One `knowledge_sources=[...]` item: a `SomeSource(...)` call (or the call a variable was assigned).
 * `name` names a string source (the variable, or `string source N`).
 */
export function knowledgeFromCrewAi(expr: string, name: string): KnowledgeReading {
  const head = /^([A-Za-z_][\w.]*)\s*\(/.exec(expr.trim());
  const className = head?.[1].split('.').pop();
  const call = head ? findCall(expr.trim(), [head[1]]) : undefined;
  if (!className || !call) return { ok: false, why: 'not a knowledge source this importer can read without running Python' };
  const { positional, keywords } = callArguments(call.args);
  if (className === 'StringKnowledgeSource') {
    const text = pyString(keywords.get('content') ?? positional[0] ?? '');
    return text?.trim() ? { ok: true, sources: [{ type: 'text', name, text }] } : { ok: false, why: 'the content is not a plain string literal' };
  }
  if (!FILE_SOURCES.has(className)) {
    return { ok: false, why: `CrewAI knowledge source ${className} has no Crewdeck equivalent (Crewdeck knowledge holds .txt, .md, .csv, .json and .pdf files, URLs and text)` };
  }
  const raw = keywords.get('file_paths') ?? keywords.get('file_path') ?? positional[0];
  const value = raw !== undefined ? pyLiteral(raw) : undefined;
  const paths = typeof value === 'string' ? [value] : Array.isArray(value) && value.every((v) => typeof v === 'string') ? (value as string[]) : undefined;
  if (!paths || paths.length === 0) return { ok: false, why: 'the file paths are not a list of string literals' };
  const bad = paths.find((p) => !FILE_TYPES.test(p));
  if (bad) return { ok: false, why: `"${bad}" is not a .txt, .md, .csv, .json or .pdf file` };
  // CrewAI reads file sources from the knowledge/ folder of the project.
  return { ok: true, sources: paths.map((p) => ({ type: 'file', path: /^knowledge\//.test(p) ? p : `knowledge/${p.replace(/^\.\//, '')}` })) };
}

/** The items of a `[...]` list expression (a single expression is one item). */
export function listItems(raw: string): string[] {
  const text = raw.trim();
  return text.startsWith('[') && text.endsWith(']') ? splitTopLevel(text.slice(1, -1)) : [text];
}
