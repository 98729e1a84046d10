import { resolve } from 'node:path';
import type { SuggestionDiff, SuggestionVersion } from '../../../shared/training';
import { loadDocumentFile } from '../../document/loadDocument';
import { errorMessage } from '../../errors';
import { isBadInput } from '../../badInput';
import { SuggestionVersionNotFound, VersionConflict } from '../../training/trainingErrors';
import { TrainingStore } from '../../training/trainingStore';
import { diffSuggestions } from '../../training/versionDiff';
import { workspaceDatabasePath } from '../../store/database';
import { formatTime } from '../format';
import { parseOptions } from '../options';
import { colorFor, createStyle, type Style } from '../style';
import { EXIT, UsageError } from '../usage';
import { workspaceDir } from '../workspaceDir';

const SUBCOMMANDS = ['list', 'show', 'edit', 'activate', 'disable', 'rollback', 'diff'] as const;
type Subcommand = (typeof SUBCOMMANDS)[number];

const OPTIONS = {
  workspace: { type: 'string', short: 'w' },
  role: { type: 'string' },
  index: { type: 'string' },
  text: { type: 'string' },
  add: { type: 'string', multiple: true },
  remove: { type: 'string', multiple: true },
  json: { type: 'boolean', default: false },
} as const;
type Values = ReturnType<typeof parseOptions<typeof OPTIONS>>['values'];

/** Prints `value` as JSON (--json) or as `text()`; exit 0. */
type Print = (value: unknown, text: () => string) => number;

/** `crewdeck suggestions …`: the trained suggestion versions of the workspace's crews. */
export async function suggestionsCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseOptions(args, OPTIONS);
  const [sub, ...rest] = positionals;
  if (!isSubcommand(sub)) {
    throw new UsageError(sub === undefined ? `suggestions needs a subcommand: ${SUBCOMMANDS.join(', ')}` : `unknown subcommand "suggestions ${sub}"; use ${SUBCOMMANDS.join(', ')}`);
  }
  const json = values.json ?? false;
  const style = createStyle(!json && colorFor(process.stdout));
  const print: Print = (value, text) => {
    process.stdout.write(json ? `${JSON.stringify(value)}\n` : text());
    return EXIT.ok;
  };

  let store: TrainingStore | undefined;
  try {
    const workspace = workspaceDir(values.workspace ?? process.cwd());
    store = TrainingStore.openExisting(workspace);
    if (!store) throw new UsageError(`there is no training data in ${workspace} (no ${workspaceDatabasePath(workspace)}); use --workspace`);
    return runSubcommand(sub, store, subcommandArgs(sub, rest, values), print, style);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    if (!(error instanceof SuggestionVersionNotFound || error instanceof VersionConflict || isBadInput(error))) throw error;
    if (json) process.stdout.write(`${JSON.stringify({ status: 'invalid', error: errorMessage(error) })}\n`);
    else process.stderr.write(`${style.red('error:')} ${errorMessage(error)}\n`);
    return EXIT.badInput;
  } finally {
    store?.close();
  }
}

function isSubcommand(sub: string | undefined): sub is Subcommand {
  return (SUBCOMMANDS as readonly string[]).includes(sub ?? '');
}

/** The positional arguments of a subcommand, each read (or refused) where it is needed. */
interface SubcommandArgs {
  values: Values;
  /** Whether there is an i-th positional argument after the subcommand. */
  has(i: number): boolean;
  crew(i: number): string;
  role(i: number): string;
  version(i: number, what?: string): number;
}

function subcommandArgs(sub: Subcommand, rest: string[], values: Values): SubcommandArgs {
  return {
    values,
    has: (i) => rest[i] !== undefined,
    crew: (i) => {
      const value = rest[i];
      if (value === undefined) throw new UsageError(`suggestions ${sub} needs a crew id (or crew file)`);
      return value.endsWith('.crew.json') ? crewIdOf(value) : value;
    },
    role: (i) => {
      const value = rest[i] ?? values.role;
      if (value === undefined) throw new UsageError(`suggestions ${sub} needs a role (quote it: "Senior Writer")`);
      return value;
    },
    version: (i, what = 'version') => {
      const value = rest[i];
      const n = Number(value);
      if (value === undefined || !Number.isInteger(n) || n < 1) throw new UsageError(`suggestions ${sub} needs a ${what} number${value === undefined ? '' : `, not "${value}"`}`);
      return n;
    },
  };
}

function runSubcommand(sub: Subcommand, store: TrainingStore, arg: SubcommandArgs, print: Print, style: Style): number {
  switch (sub) {
    case 'list': {
      const crews = arg.has(0) ? [arg.crew(0)] : store.crews();
      const versions = crews.flatMap((c) => store.versions(c, arg.values.role));
      return print(versions, () => (versions.length === 0 ? 'No suggestion versions.\n' : formatList(versions, style)));
    }
    case 'show': {
      const crewId = arg.crew(0);
      const role = arg.role(1);
      const version = arg.has(2) ? store.version(crewId, role, arg.version(2)) : (store.active(crewId, role) ?? store.versions(crewId, role)[0]);
      if (!version) throw new SuggestionVersionNotFound(crewId, role, 1, []);
      const records = store.records({ crewId, ids: version.recordIds });
      return print({ version, records }, () => formatVersion(version, style) + formatRecords(records, style));
    }
    case 'edit': {
      const crewId = arg.crew(0);
      const role = arg.role(1);
      const number = arg.version(2);
      const kept = editedSuggestions(store.version(crewId, role, number).suggestions, arg.values);
      const edited = store.editSuggestions(crewId, role, number, kept);
      return print(edited, () => formatVersion(edited, style));
    }
    case 'activate': {
      const v = store.activate(arg.crew(0), arg.role(1), arg.version(2));
      return print(v, () => `Version ${v.version} of ${v.role} is active; the next runs of ${v.crewId} follow its ${v.suggestions.length} suggestion(s).\n`);
    }
    case 'disable': {
      const v = store.disable(arg.crew(0), arg.role(1), arg.version(2));
      return print(v, () => `Version ${v.version} of ${v.role} is disabled.\n`);
    }
    case 'rollback': {
      const v = store.rollback(arg.crew(0), arg.role(1));
      return print(v, () => `Rolled back: version ${v.version} of ${v.role} is active again.\n`);
    }
    case 'diff': {
      const crewId = arg.crew(0);
      const role = arg.role(1);
      const diff = diffSuggestions(store.version(crewId, role, arg.version(2, 'first version')), store.version(crewId, role, arg.version(3, 'second version')));
      return print(diff, () => formatDiff(diff, style));
    }
  }
}

/** `suggestions edit`: the version's suggestions with --index/--text, --remove and --add applied. */
function editedSuggestions(suggestions: readonly string[], values: Values): string[] {
  const list = [...suggestions];
  if (values.index !== undefined || values.text !== undefined) {
    const i = Number(values.index);
    if (!Number.isInteger(i) || i < 1 || i > list.length) throw new UsageError(`--index must be a suggestion number from 1 to ${list.length}, not "${values.index ?? ''}"`);
    if (values.text === undefined || values.text.trim() === '') throw new UsageError('--index needs --text with the new wording');
    list[i - 1] = values.text.trim();
  }
  const removed = (values.remove ?? []).map((r) => {
    const i = Number(r);
    if (!Number.isInteger(i) || i < 1 || i > list.length) throw new UsageError(`--remove must be a suggestion number from 1 to ${list.length}, not "${r}"`);
    return i - 1;
  });
  const kept = list.filter((_, i) => !removed.includes(i));
  for (const added of values.add ?? []) if (added.trim()) kept.push(added.trim());
  if (values.index === undefined && removed.length === 0 && (values.add ?? []).length === 0) {
    throw new UsageError('suggestions edit needs --index N --text T, --add T or --remove N');
  }
  return kept;
}

function crewIdOf(file: string): string {
  const loaded = loadDocumentFile(resolve(file));
  if (loaded.kind !== 'crew') throw new UsageError(`${file} is not a crew`);
  return loaded.doc.id;
}

const statusColor = (v: SuggestionVersion, style: Style) => (v.status === 'active' ? style.green(v.status) : v.status === 'draft' ? style.yellow(v.status) : style.dim(v.status));

function formatList(versions: SuggestionVersion[], style: Style): string {
  return (
    versions
      .map((v) => `${v.crewId}  ${style.bold(v.role)}  v${v.version}  ${statusColor(v, style)}  quality ${v.quality}/10  ${v.suggestions.length} suggestion(s)${v.edited ? '  edited' : ''}  ${style.dim(formatTime(v.createdAt))}`)
      .join('\n') + '\n'
  );
}

function formatVersion(v: SuggestionVersion, style: Style): string {
  const lines = [
    `${style.bold(`${v.role} — version ${v.version}`)} (${statusColor(v, style)}) of crew ${v.crewId}`,
    `quality ${v.quality}/10 · ${v.runIds.length} training run(s) · ${v.recordIds.length} feedback record(s)${v.edited ? ` · edited ${v.history.length} time(s)` : ''}`,
    style.dim(v.summary),
    ...v.suggestions.map((s, i) => `  ${i + 1}. ${s}`),
  ];
  return lines.join('\n') + '\n';
}

function formatRecords(records: { iteration: number; taskId: string; feedback: string; runId: string }[], style: Style): string {
  if (records.length === 0) return '';
  return `\n${style.bold('Feedback behind it')}\n` + records.map((r) => `  [iteration ${r.iteration}, task ${r.taskId}] ${r.feedback} ${style.dim(r.runId)}`).join('\n') + '\n';
}

function formatDiff(diff: SuggestionDiff, style: Style): string {
  const lines = [style.bold(`version ${diff.from} → version ${diff.to}`)];
  for (const s of diff.removed) lines.push(style.red(`- ${s}`));
  for (const s of diff.added) lines.push(style.green(`+ ${s}`));
  for (const c of diff.changed) lines.push(style.yellow(`~ ${c.before}`), style.yellow(`  → ${c.after}`));
  for (const s of diff.unchanged) lines.push(style.dim(`  ${s}`));
  return lines.join('\n') + '\n';
}
