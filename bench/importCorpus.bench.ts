/**
 * `npm run bench:import-corpus -- <corpus-dir> [--write]`: the CrewAI importer measured on real projects
 * (issue 28's aim). The corpus is not in this repository — third-party projects are never copied into
 * it — but gathered into a folder of one sub-folder per project (each with its pyproject.toml or
 * main.py at its root) and an optional `*-index.json` naming each project's repository and commit.
 * Each project is imported with `crewdeck import`, and every crew and flow it yields is run with
 * `crewdeck run --model corpus` on a scripted profile (JSON tasks answered with the smallest value their
 * schema accepts). `--write` puts the table into docs/IMPORT_CORPUS.md.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { writeGeneratedBlock } from './docBlock';
import { importAndRun, type ProjectResult } from './importCorpus/projectResult';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { write: { type: 'boolean', default: false } } });
const corpus = resolve(positionals[0] ?? '');
if (!positionals[0] || !existsSync(corpus)) {
  console.error('usage: npm run bench:import-corpus -- <corpus-dir> [--write]   (one sub-folder per CrewAI project)');
  process.exit(2);
}

interface IndexEntry { slug: string; repo: string; commit?: string; subdir?: string; style?: string }
const index = new Map<string, IndexEntry>();
for (const name of readdirSync(corpus).filter((n) => n.endsWith('-index.json'))) {
  for (const entry of JSON.parse(readFileSync(join(corpus, name), 'utf8')) as IndexEntry[]) index.set(entry.slug, entry);
}

const configDir = mkdtempSync(join(tmpdir(), 'crewdeck-corpus-config-'));
const results: ProjectResult[] = [];
for (const slug of readdirSync(corpus).filter((n) => statSync(join(corpus, n)).isDirectory()).sort()) {
  const result = importAndRun(slug, join(corpus, slug), configDir);
  results.push(result);
  console.log(`${slug}: ${result.imported ? `imported ${result.documents.length} document(s); ${result.documents.map((d) => d.outcome).join(', ')}` : 'not imported'}${result.problem ? ` — ${result.problem}` : ''}`);
}

const pct = (n: number, of: number) => (of === 0 ? '–' : `${n}/${of} (${Math.round((100 * n) / of)} %)`);
const imported = results.filter((r) => r.imported);
const ranAll = imported.filter((r) => r.documents.length > 0 && r.documents.every((d) => d.outcome !== 'failed'));
const methods = results.reduce((n, r) => n + r.methods, 0);
const stubs = results.reduce((n, r) => n + r.stubs, 0);
const withTools = results.filter((r) => r.hasTools);
const lostTool = withTools.filter((r) => !r.imported || r.lostTools.length > 0);
const verdict = (met: boolean) => (met ? '**met**' : '**missed**');
const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\s+/g, ' ').slice(0, 160);

const lines = [
  `Measured ${new Date().toISOString().slice(0, 10)} on ${results.length} public CrewAI projects by other people (\`npm run bench:import-corpus -- <corpus> --write\`).`,
  '',
  '| aim (issue 28) | measured | verdict |',
  '|---|--:|---|',
  `| at least nine in ten import | ${pct(imported.length, results.length)} | ${verdict(imported.length >= 0.9 * results.length)} |`,
  `| at least eight in ten run every crew and flow they yield (scripted model, \`--model corpus\`) | ${pct(ranAll.length, results.length)} | ${verdict(ranAll.length >= 0.8 * results.length)} |`,
  `| no more than 15 % of imported flow methods are stubs | ${pct(stubs, methods)} | ${verdict(methods === 0 || stubs <= 0.15 * methods)} |`,
  `| no more than one project in five loses a tool (of those with tools) | ${pct(lostTool.length, withTools.length)} | ${verdict(lostTool.length <= 0.2 * withTools.length)} |`,
  '',
  '| project | repository (commit) | style | imported | documents: outcome | stub methods | tools lost | first problem |',
  '|---|---|---|---|---|--:|---|---|',
  ...results.map((r) => {
    const e = index.get(r.slug);
    const source = e ? `${e.repo}${e.subdir ? `/${e.subdir}` : ''}${e.commit ? ` (${e.commit.slice(0, 7)})` : ''}` : '–';
    const docs = r.documents.map((d) => `${d.kind} ${d.outcome}`).join(', ') || '–';
    return `| ${r.slug} | ${cell(source)} | ${e?.style ?? '–'} | ${r.imported ? 'yes' : 'no'} | ${docs} | ${r.methods ? `${r.stubs}/${r.methods}` : '–'} | ${r.lostTools.length ? cell(r.lostTools.join('; ')) : !r.hasTools ? '–' : r.imported ? 'none' : 'all (not imported)'} | ${cell(r.problem ?? '')} |`;
  }),
];
const table = lines.join('\n');
console.log(`\n${table}`);
if (values.write) {
  const file = writeGeneratedBlock('importCorpus', '## The corpus, project by project', table, join(import.meta.dirname, '../docs/IMPORT_CORPUS.md'));
  console.log(`\nwrote ${file}`);
}
