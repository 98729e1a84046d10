import { readFileSync } from 'node:fs';
import { isMap, LineCounter, parseDocument } from 'yaml';
import { CrewAiYamlInvalid } from './crewAiErrors';

/** One top-level entry of agents.yaml or tasks.yaml: its key, its settings and its 1-based line. */
export interface YamlEntry {
  key: string;
  value: Record<string, unknown>;
  line: number;
}

/** Reads a CrewAI config file: a mapping of names to settings. Errors name the file and line. */
export function readYamlConfig(file: string, label: string): YamlEntry[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new CrewAiYamlInvalid(label, `cannot read the file: ${(error as Error).message}`);
  }
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: true, uniqueKeys: true });
  const first = doc.errors[0];
  if (first) {
    const pos = first.linePos?.[0];
    throw new CrewAiYamlInvalid(label, first.message.split(' at line ')[0].split('\n')[0], pos?.line, pos?.col);
  }
  if (doc.contents === null) return [];
  if (!isMap(doc.contents)) throw new CrewAiYamlInvalid(label, 'expected a mapping of names to settings at the top level', 1);
  const js = doc.toJS({ maxAliasCount: 1000 }) as Record<string, unknown>;
  const entries: YamlEntry[] = [];
  for (const pair of doc.contents.items) {
    const key = String((pair.key as { value?: unknown } | null)?.value ?? pair.key);
    const offset = (pair.key as { range?: [number, number, number] } | null)?.range?.[0] ?? 0;
    const line = lineCounter.linePos(offset).line;
    const value = js[key] ?? null;
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw new CrewAiYamlInvalid(label, `"${key}" must be a mapping of settings`, line);
    }
    entries.push({ key, value: value as Record<string, unknown>, line });
  }
  return entries;
}
