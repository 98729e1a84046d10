import { existsSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import type { KnowledgeSource } from '../../../shared/model/crew';
import { textOf, type Val } from '../construct/values';
import type { MapContext, Setting } from './mapContext';
import { shown } from './mapValues';

/** CrewAI's file knowledge sources: their files live in the project's knowledge/ folder. */
const FILE_SOURCES = new Set(['PDFKnowledgeSource', 'TextFileKnowledgeSource', 'CSVKnowledgeSource', 'JSONKnowledgeSource', 'FileKnowledgeSource', 'ExcelKnowledgeSource', 'CrewDoclingSource']);
const FILE_TYPES = /\.(txt|md|markdown|csv|json|pdf)$/i;

/**
 * `knowledge_sources=[...]`: file sources (their files brought along into the workspace at the path
 * CrewAI reads them from, `knowledge/<file>`, so the imported crew finds them wherever it is imported
 * to), string sources as text, URLs (CrewDoclingSource) as URL sources.
 */
export function knowledgeSetting(ctx: MapContext, s: Setting | undefined, item: string): KnowledgeSource[] {
  if (!s || (s.value.t === 'lit' && s.value.v === null)) return [];
  const items = s.value.t === 'list' ? s.value.items : [s.value];
  const out: KnowledgeSource[] = [];
  items.forEach((v, i) => out.push(...sourceOf(ctx, v, s.at, item, i)));
  return out;
}

function sourceOf(ctx: MapContext, v: Val, at: string, item: string, index: number): KnowledgeSource[] {
  const fail = (why: string) => {
    ctx.note(at, `${item}: ${shown(v)}`, why);
    return [];
  };
  if (v.t !== 'obj') return fail('not a knowledge source this importer can read without running the Python');
  if (v.cls === 'StringKnowledgeSource') {
    const text = textOf(v.args.kw.get('content') ?? v.args.pos[0]);
    return text?.trim() ? [{ type: 'text', name: v.hint && !/^(source|knowledge)$/.test(v.hint) ? v.hint : `string source ${index + 1}`, text }] : fail('the content is not plain text');
  }
  if (!FILE_SOURCES.has(v.cls)) return fail(`CrewAI knowledge source ${v.cls} has no Crewdeck equivalent (Crewdeck knowledge holds .txt, .md, .csv, .json and .pdf files, URLs and text)`);
  const given = v.args.kw.get('file_paths') ?? v.args.kw.get('file_path') ?? v.args.pos[0];
  const list = given?.t === 'list' ? given.items : given ? [given] : [];
  if (list.length === 0) return fail('the file paths are not a list the importer can read');
  const out: KnowledgeSource[] = [];
  for (const p of list) {
    const text = p.t === 'path' ? p.abs : textOf(p);
    if (text === undefined) {
      ctx.note(at, `${item}: ${v.cls} ${shown(p)}`, 'a file path computed by Python; add the file to the crew\'s knowledge in Crewdeck');
      continue;
    }
    if (/^https?:\/\//i.test(text)) {
      out.push({ type: 'url', url: text });
      continue;
    }
    if (!FILE_TYPES.test(text)) {
      ctx.note(at, `${item}: ${v.cls} ${text}`, `"${text}" is not a .txt, .md, .csv, .json or .pdf file`);
      continue;
    }
    out.push(...fileSource(ctx, text, at, item));
  }
  return out;
}

/** A knowledge file: CrewAI reads relative paths from the project's knowledge/ folder. */
function fileSource(ctx: MapContext, path: string, at: string, item: string): KnowledgeSource[] {
  const abs = isAbsolute(path) ? path : resolve(ctx.src.root, 'knowledge', path.replace(/^knowledge\//, ''));
  const rel = ctx.bringAlong(abs);
  if (rel) return [{ type: 'file', path: rel }];
  const fallback = resolve(ctx.src.root, path);
  const relFallback = existsSync(fallback) ? ctx.bringAlong(fallback) : undefined;
  if (relFallback) {
    ctx.note(at, `${item}: ${path}`, `CrewAI reads knowledge files from knowledge/ (where ${path} is not); the file at ${relFallback} was used`);
    return [{ type: 'file', path: relFallback }];
  }
  ctx.note(at, `${item}: ${path}`, `the file is not in the project's knowledge/ folder (${join('knowledge', path)}), so it is not brought along; the source names it as knowledge/${path}`);
  return [{ type: 'file', path: `knowledge/${path.replace(/^\.?\//, '')}` }];
}
