import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { exampleFromSchema } from './exampleFromSchema';

const CLI = join(import.meta.dirname, '../../bin/crewdeck.js');
const LOST_TOOL = /add the tool in Crewdeck|the tool is left out|no Crewdeck built-in equivalent|no Python tool bridge|move it to module level/;

export interface ProjectResult {
  slug: string;
  imported: boolean;
  /** Why the import failed, or why the first document that did not run failed. */
  problem?: string;
  documents: { path: string; kind: 'crew' | 'flow'; outcome: 'completed' | 'completed with stubs' | 'paused' | 'failed'; error?: string }[];
  methods: number;
  stubs: number;
  /** The project's Python or YAML gives agents tools. */
  hasTools: boolean;
  /** Unmapped items that are tools (the agent runs without them). */
  lostTools: string[];
  unmapped: number;
}

interface ImportJson {
  status?: string;
  message?: string;
  documents?: { path: string; kind: 'crew' | 'flow' }[];
  unmapped?: { path: string; item: string; why: string }[];
}

function cli(args: string[], env: NodeJS.ProcessEnv, timeout = 120_000): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env, timeout, maxBuffer: 64 * 1024 * 1024 });
  return { status: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
}

function lastJson(stdout: string): Record<string, unknown> | undefined {
  const line = stdout.trim().split('\n').reverse().find((l) => l.startsWith('{'));
  try {
    return line ? (JSON.parse(line) as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (['.py', '.yaml', '.yml'].includes(extname(name))) out.push(path);
  }
  return out;
}

/** A rule per JSON task of the imported crews: the smallest value its schema accepts. */
function jsonRules(documents: { path: string; kind: string }[]): { when: { any: string }; reply: string }[] {
  const rules: { when: { any: string }; reply: string }[] = [];
  for (const d of documents) {
    if (d.kind !== 'crew') continue;
    const doc = JSON.parse(readFileSync(d.path, 'utf8')) as { tasks: { description: string; output?: { format?: string; schema?: unknown } }[] };
    for (const task of doc.tasks) {
      if (task.output?.format !== 'json') continue;
      const marker = task.description.split('{')[0]!.trim().split('\n')[0]!.slice(0, 60).trim();
      if (marker.length < 8) continue;
      rules.push({ when: { any: marker }, reply: JSON.stringify(task.output.schema ? exampleFromSchema(task.output.schema) : {}) });
    }
  }
  return rules;
}

/** Imports one project with the CLI, then runs every document it yields on a scripted model. */
export function importAndRun(slug: string, projectDir: string, configDir: string): ProjectResult {
  const out = join(mkdtempSync(join(tmpdir(), 'crewdeck-corpus-')), 'workspace');
  const env = { ...process.env, NO_COLOR: '1', CREWDECK_CONFIG_DIR: configDir, OPENAI_API_KEY: '' };
  const hasTools = sourceFiles(projectDir).some((f) => /\btools\s*[=:]\s*\[?\s*[A-Za-z_]/.test(readFileSync(f, 'utf8')));
  const imported = cli(['import', projectDir, '-o', out, '--json'], env);
  const report = lastJson(imported.stdout) as ImportJson | undefined;
  if (imported.status !== 0 || !report?.documents) {
    return { slug, imported: false, problem: report?.message ?? (imported.stderr.trim().split('\n').pop() || `exit ${imported.status}`), documents: [], methods: 0, stubs: 0, hasTools, lostTools: [], unmapped: 0 };
  }
  const unmapped = report.unmapped ?? [];
  // A tool the agent runs without (runtime/crewai/crews/mapTool.ts words these), not a setting of a tool
  // that was carried over without one of its parameters.
  const lostTools = unmapped.filter((u) => /\.tools: /.test(u.item) && LOST_TOOL.test(u.why)).map((u) => u.item);
  let methods = 0;
  let stubs = 0;
  for (const d of report.documents.filter((x) => x.kind === 'flow')) {
    const flow = JSON.parse(readFileSync(d.path, 'utf8')) as { methods: unknown[] };
    methods += flow.methods.length;
    stubs += flow.methods.filter((m) => JSON.stringify(m).includes('"stub":{')).length;
  }

  // A scripted profile of the bench's own beside what the import wrote; every run is forced onto it.
  const settingsFile = join(out, 'crewdeck.json');
  const settings = existsSync(settingsFile) ? (JSON.parse(readFileSync(settingsFile, 'utf8')) as Record<string, unknown>) : { version: 1 };
  const models = (settings.models ?? {}) as { profiles?: Record<string, unknown> };
  // An LLM guardrail's judge passes every answer (runtime/crew/guardrails.ts asks it for {"pass", "reason"}).
  const judge = { when: { any: 'You check whether an answer meets a criterion' }, reply: '{"pass": true, "reason": "It does."}' };
  settings.models = { ...models, profiles: { ...(models.profiles ?? {}), corpus: { provider: 'scripted', model: 'corpus', script: { rules: [judge, ...jsonRules(report.documents)], default: 'Done, as asked.' } } } };
  writeFileSync(settingsFile, `${JSON.stringify(settings, null, 2)}\n`);
  cli(['trust', '--yes', '--workspace', out, '--json'], env);

  const documents: ProjectResult['documents'] = [];
  for (const d of report.documents) {
    const doc = JSON.parse(readFileSync(d.path, 'utf8')) as { inputs?: { name: string; default?: string }[] };
    const inputs = (doc.inputs ?? []).filter((i) => i.default === undefined).flatMap((i) => ['--input', `${i.name}=example ${i.name}`]);
    const ran = cli(['run', d.path, '--model', 'corpus', '--workspace', out, '--json', ...inputs], env);
    const result = lastJson(ran.stdout);
    const status = typeof result?.status === 'string' ? result.status : undefined;
    const outcome = ran.status === 0 ? 'completed' : ran.status === 3 ? 'completed with stubs' : status === 'paused' || status === 'waiting' ? 'paused' : 'failed';
    const error = outcome === 'failed' ? String((result?.error as { message?: string } | undefined)?.message ?? result?.message ?? result?.error ?? (ran.stderr.trim().split('\n').pop() || `exit ${ran.status}`)) : undefined;
    documents.push({ path: d.path.slice(out.length + 1), kind: d.kind, outcome, ...(error ? { error } : {}) });
  }
  const failed = documents.find((d) => d.outcome === 'failed');
  return { slug, imported: true, ...(failed ? { problem: `${failed.path}: ${failed.error}` } : {}), documents, methods, stubs, hasTools, lostTools, unmapped: unmapped.length };
}
