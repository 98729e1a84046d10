import { loadWorkspaceSettings } from '../../document/loadDocument';
import { isBadInput } from '../../badInput';
import { MemoryNotFound } from '../../memory/memoryErrors';
import type { MemoryStore } from '../../memory/memoryStore';
import { openWorkspaceMemory } from '../../memory/workspaceMemory';
import { WorkspaceTrust } from '../../trust/workspaceTrust';
import type { MemoryRecord, RecallMatch } from '../../memory/types';
import { formatTime, oneLine } from '../format';
import { parseOptions } from '../options';
import { reportBadInput } from '../terminalStop';
import { colorFor, createStyle, type Style } from '../style';
import { EXIT, UsageError } from '../usage';
import { workspaceDir } from '../workspaceDir';

const SUBCOMMANDS = ['list', 'search', 'add', 'edit', 'forget', 'reset'] as const;

/** `crewdeck memory list|search|add|edit|forget|reset`: the workspace's memories from the terminal. */
export async function memoryCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseOptions(args, {
    workspace: { type: 'string', short: 'w' },
    scope: { type: 'string' },
    category: { type: 'string', multiple: true },
    importance: { type: 'string' },
    private: { type: 'boolean', default: false },
    limit: { type: 'string' },
    content: { type: 'string' },
    yes: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
  });
  const [sub, ...rest] = positionals;
  if (!(SUBCOMMANDS as readonly string[]).includes(sub ?? '')) {
    throw new UsageError(sub === undefined ? `memory needs a subcommand: ${SUBCOMMANDS.join(', ')}` : `unknown subcommand "memory ${sub}"; use ${SUBCOMMANDS.join(', ')}`);
  }
  const json = values.json ?? false;
  const style = createStyle(!json && colorFor(process.stdout));
  const limit = values.limit === undefined ? undefined : Number(values.limit);
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 1)) throw new UsageError(`--limit must be a positive whole number, not "${values.limit}"`);
  const importance = values.importance === undefined ? undefined : Number(values.importance);
  if (importance !== undefined && !(importance >= 0 && importance <= 1)) throw new UsageError(`--importance must be between 0 and 1, not "${values.importance}"`);

  let store: MemoryStore | undefined;
  try {
    const workspace = workspaceDir(values.workspace ?? process.cwd());
    store = await openWorkspaceMemory(workspace, { settings: loadWorkspaceSettings(workspace), env: process.env, trust: new WorkspaceTrust(workspace) });
    switch (sub) {
      case 'list': {
        const records = await store.list({ scope: values.scope, categories: values.category, includePrivate: true, limit: limit ?? 50 });
        return print(json, records, () => (records.length === 0 ? 'No memories in this workspace.\n' : records.map((r) => formatRecord(r, style)).join('\n') + '\n'));
      }
      case 'search': {
        const query = rest.join(' ').trim();
        if (!query) throw new UsageError('memory search needs a query, e.g. crewdeck memory search "solar panel cost"');
        const matches = await store.recall({ query, scope: values.scope, categories: values.category, includePrivate: values.private, limit: limit ?? 5 });
        return print(json, matches, () => (matches.length === 0 ? 'Nothing matched.\n' : matches.map((m) => formatMatch(m, style)).join('\n') + '\n'));
      }
      case 'add': {
        const content = rest.join(' ').trim();
        if (!content) throw new UsageError('memory add needs the text to remember');
        // As CrewAI's remember(): without --scope, the root scope.
        // add returns one record per memory given.
        const record = (
          await store.add([{ content, scope: values.scope ?? '/', categories: values.category, importance, private: values.private, source: { kind: 'manual' } }])
        )[0]!;
        return print(json, record, () => `Remembered ${style.bold(record.id)} in ${record.scope}\n`);
      }
      case 'edit': {
        const [id] = rest;
        if (!id) throw new UsageError('memory edit needs a memory id (see crewdeck memory list)');
        if (values.content === undefined && values.category === undefined && importance === undefined) {
          throw new UsageError('memory edit needs --content, --category or --importance');
        }
        const record = await store.update(id, { content: values.content, categories: values.category, importance, reason: 'edited from the CLI' });
        return print(json, record, () => `Updated ${style.bold(record.id)}\n`);
      }
      case 'forget': {
        if (rest.length === 0 && !values.scope) throw new UsageError('memory forget needs memory ids or --scope');
        const removed = await store.forget({ ids: rest.length ? rest : undefined, scope: values.scope });
        return print(json, { removed }, () => `Forgot ${removed} memor${removed === 1 ? 'y' : 'ies'}\n`);
      }
      case 'reset': {
        if (!values.yes) throw new UsageError('memory reset removes every memory of the workspace; add --yes to confirm');
        const count = await store.count();
        await store.reset();
        return print(json, { removed: count }, () => `Removed all ${count} memories\n`);
      }
    }
    return EXIT.ok;
  } catch (error) {
    if (!(isBadInput(error) || error instanceof MemoryNotFound || error instanceof UsageError)) throw error;
    return reportBadInput(error, json, style);
  } finally {
    await store?.close();
    // The command itself worked (the data is written); the store could not keep its indices up.
    if (store?.indexProblem) process.stderr.write(`${style.yellow('warning:')} memory index upkeep failed (searches still see every memory, more slowly): ${store.indexProblem}\n`);
  }
}

function print(json: boolean, value: unknown, human: () => string): number {
  process.stdout.write(json ? `${JSON.stringify(value)}\n` : human());
  return EXIT.ok;
}

function formatRecord(r: MemoryRecord, style: Style): string {
  const tags = [r.scope, ...r.categories.map((c) => `#${c}`), r.private ? 'private' : ''].filter(Boolean).join(' ');
  const origin = r.source.runId ? `${r.source.kind} · ${r.source.runId}${r.source.taskId ? `/${r.source.taskId}` : ''}` : r.source.kind;
  return `${style.bold(r.id)} ${style.dim(`${formatTime(r.updatedAt)} · importance ${r.importance.toFixed(2)} · ${origin}`)}\n  ${oneLine(r.content, 110)}\n  ${style.dim(tags)}`;
}

function formatMatch(m: RecallMatch, style: Style): string {
  return `${style.bold(m.score.toFixed(2))} ${formatRecord(m.record, style)}\n  ${style.dim(m.reasons.join(' · '))}`;
}
