import { resolve } from 'node:path';
import type { CrewDocument } from '../../shared/model/crew';
import { CrewAiExportFailed } from './crewAiErrors';
import { severalCrewsMainPy } from './export/mainPy';
import { assertExportTarget, copyAlong, writeProjectFiles } from './export/projectFiles';
import { ProjectWriter, type WriterOptions } from './export/projectWriter';
import { pyprojectToml } from './export/pyproject';
import { packageName } from './export/pythonNames';
import type { UnmappedItem } from './unmapped';

export interface CrewAiExport {
  /** Files written, relative to the target folder. */
  files: string[];
  /** Everything in the crew that CrewAI has no equivalent for (also listed as comments in the YAML). */
  summary: UnmappedItem[];
  /** The Python package name (src/<package>/). */
  packageName: string;
}

export interface ExportOptions extends WriterOptions {
  /** Write into a folder that already has files (files of the same name are replaced). */
  overwrite?: boolean;
}

/**
 * Writes a CrewAI project (pyproject.toml, src/<pkg>/{crew.py, main.py, config/agents.yaml,
 * config/tasks.yaml}) for a crew. Settings CrewAI cannot express are returned in `summary`.
 */
export function exportCrewAi(doc: CrewDocument, dir: string, options: ExportOptions = {}): CrewAiExport {
  const root = resolve(dir);
  assertExportTarget(root, options.overwrite);
  const writer = new ProjectWriter(doc, options);
  const written = writeProjectFiles(root, writer.render());
  written.push(...copyAlong(root, writer.copies));
  return { files: written, summary: writer.summary, packageName: writer.pkg };
}

/**
 * Several crews as one CrewAI project, the layout CrewAI's flow template uses:
 * src/<pkg>/crews/<crew>/{crew.py, config/agents.yaml, config/tasks.yaml} per crew (each its own
 * @CrewBase class) and a main.py that kicks them off one after another. `name` names the project
 * (default: the first crew's id). Summary paths are prefixed with the crew id.
 */
export function exportCrewAiCrews(docs: CrewDocument[], dir: string, options: ExportOptions & { name?: string; crewsLayout?: boolean } = {}): CrewAiExport {
  const [first] = docs;
  if (first !== undefined && docs.length === 1 && !options.crewsLayout) return exportCrewAi(first, dir, options);
  const root = resolve(dir);
  assertExportTarget(root, options.overwrite);
  const projectId = options.name ?? first?.id;
  if (projectId === undefined) throw new CrewAiExportFailed('no crews to export');
  const pkg = packageName(projectId, 'crews_');
  const summary: UnmappedItem[] = [];
  const files = new Map<string, string>();
  const writers = docs.map((doc) => new ProjectWriter(doc, options));
  const seen = new Set<string>();
  for (const w of writers) {
    if (seen.has(w.pkg)) throw new CrewAiExportFailed(`two crews would both be written as crews/${w.pkg}; give them different ids`);
    seen.add(w.pkg);
    addCrewFiles(files, pkg, w);
    summary.push(...crewSummary(w));
  }
  files.set('pyproject.toml', pyprojectToml(projectId, pkg, undefined));
  files.set(`src/${pkg}/__init__.py`, '');
  files.set(`src/${pkg}/crews/__init__.py`, '');
  files.set(`src/${pkg}/main.py`, severalCrewsMainPy(pkg, writers));
  const written = writeProjectFiles(root, files);
  for (const w of writers) written.push(...copyAlong(root, w.copies));
  return { files: written, summary, packageName: pkg };
}

/** A crew's crew.py and YAML files, under src/<pkg>/crews/<crew>/. */
function addCrewFiles(files: Map<string, string>, pkg: string, w: ProjectWriter): void {
  for (const [path, content] of w.render()) {
    const inside = /^src\/[^/]+\/(crew\.py|config\/agents\.yaml|config\/tasks\.yaml)$/.exec(path);
    if (inside) files.set(`src/${pkg}/crews/${w.pkg}/${inside[1]}`, content);
  }
  files.set(`src/${pkg}/crews/${w.pkg}/__init__.py`, '');
}

/** A crew's summary, its paths prefixed with the crew id, and what a several-crew project loses of it. */
function crewSummary(w: ProjectWriter): UnmappedItem[] {
  const summary = w.summary.map((item) => ({ ...item, path: `${w.doc.id}: ${item.path}` }));
  // Imported back, a crew of a several-crew project takes its id from its class name.
  const back = w.className.replace(/(?<=[a-z0-9])(?=[A-Z])/g, '_').toLowerCase();
  if (back !== w.doc.id) summary.push({ path: `${w.doc.id}: id`, item: w.doc.id, why: `CrewAI names the crew by its class ${w.className}; imported back its id is "${back}"` });
  if (w.doc.description !== undefined) summary.push({ path: `${w.doc.id}: description`, item: w.doc.description, why: 'only the project (pyproject.toml) has a description in CrewAI; kept as a comment in main.py' });
  return summary;
}
