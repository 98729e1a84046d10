import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { KnowledgeSource } from '../../../shared/model/crew';
import { WorkspaceInvalid } from '../../errors';
import { KnowledgeSourceError } from '../../knowledge/errors';
import type { IngestResult, KnowledgeSourceInfo, KnowledgeStore } from '../../knowledge/knowledgeStore';
import { loadSource, sourceKey } from '../../knowledge/loadSource';
import { openWorkspaceKnowledge } from '../../knowledge/workspaceKnowledge';
import { workspaceEmbedder } from '../../memory/workspaceMemory';
import { WorkspaceTrust } from '../../trust/workspaceTrust';
import { confirmTrustAtTerminal } from '../terminalTrust';
import { loadWorkspaceSettings } from '../../document/loadDocument';
import { formatTime } from '../format';
import { parseOptions } from '../options';
import { colorFor, createStyle, type Style } from '../style';
import { EXIT, UsageError } from '../usage';
import { reportBadInput } from '../terminalStop';
import { workspaceDir } from '../workspaceDir';

const SUBCOMMANDS = ['ingest', 'list', 'remove'] as const;

/** A source named on the command line that the store does not hold. */
class KnowledgeSourceUnknown extends Error {
  override name = 'KnowledgeSourceUnknown';
}

/** `crewdeck knowledge ingest|list|remove`: the workspace's knowledge sources from the terminal. */
export async function knowledgeCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseOptions(args, {
    workspace: { type: 'string', short: 'w' },
    name: { type: 'string' },
    json: { type: 'boolean', default: false },
  });
  const [sub, ...rest] = positionals;
  if (!(SUBCOMMANDS as readonly string[]).includes(sub ?? '')) {
    throw new UsageError(sub === undefined ? `knowledge needs a subcommand: ${SUBCOMMANDS.join(', ')}` : `unknown subcommand "knowledge ${sub}"; use ${SUBCOMMANDS.join(', ')}`);
  }
  const json = values.json ?? false;
  const style = createStyle(!json && colorFor(process.stdout));
  if (sub === 'ingest' && rest.length === 0) throw new UsageError('knowledge ingest needs files or URLs, e.g. crewdeck knowledge ingest docs/prices.csv');
  if (sub === 'ingest' && values.name !== undefined && rest.length > 1) throw new UsageError('--name names one source; ingest the sources one at a time to name them');
  if (sub === 'remove' && rest.length === 0) throw new UsageError('knowledge remove needs sources (see crewdeck knowledge list)');
  if (sub !== 'ingest' && values.name !== undefined) throw new UsageError(`--name is only for knowledge ingest`);

  let store: KnowledgeStore | undefined;
  try {
    const workspace = workspaceDir(values.workspace ?? process.cwd());
    const settings = loadWorkspaceSettings(workspace);
    if (sub === 'ingest') await confirmTrustAtTerminal(workspace, settings, json, style);
    store = await openWorkspaceKnowledge(workspace, await workspaceEmbedder(settings?.memory?.embedder, process.env, new WorkspaceTrust(workspace)));
    switch (sub) {
      case 'ingest': {
        const results: IngestResult[] = [];
        for (const arg of rest) {
          // The person typed this URL: its host is fetched whatever its address.
          const loaded = await loadSource(workspace, sourceFromArg(workspace, arg, values.name), { trustNamedHost: true });
          results.push(await store.ingest(loaded));
        }
        return print(json, results, () => results.map((r) => formatIngest(r, style)).join(''));
      }
      case 'list': {
        const sources = await store.sources();
        return print(json, sources, () => (sources.length === 0 ? 'No knowledge sources in this workspace.\n' : sources.map((s) => formatSource(s, style)).join('\n') + '\n'));
      }
      case 'remove': {
        const sources = await store.sources();
        const keys = rest.map((arg) => findSource(workspace, sources, arg).key);
        const removed = await store.remove([...new Set(keys)]);
        return print(json, { removed: [...new Set(keys)], chunks: removed }, () => `Removed ${keys.length} source${keys.length === 1 ? '' : 's'} (${removed} chunk${removed === 1 ? '' : 's'})\n`);
      }
    }
    return EXIT.ok;
  } catch (error) {
    if (!(error instanceof WorkspaceInvalid || error instanceof KnowledgeSourceError || error instanceof KnowledgeSourceUnknown)) throw error;
    return reportBadInput(error, json, style);
  } finally {
    store?.close();
  }
}

/**
 * A URL, or a file path made relative to the workspace: a path from the current folder when that is
 * inside the workspace, else a path within the workspace (checked again when the file is read).
 */
function sourceFromArg(workspace: string, arg: string, name: string | undefined): KnowledgeSource {
  const named = name === undefined ? {} : { name };
  if (/^https?:\/\//i.test(arg)) {
    try {
      new URL(arg);
    } catch {
      throw new KnowledgeSourceError(`<${arg}>`, 'is not a valid URL');
    }
    return { type: 'url', url: arg, ...named };
  }
  return { type: 'file', path: workspacePath(workspace, arg), ...named };
}

function workspacePath(workspace: string, arg: string): string {
  const rel = relative(workspace, resolve(arg));
  const outside = rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel);
  if (!outside) return rel.split(sep).join('/');
  if (!isAbsolute(arg)) return arg.split(sep).join('/');
  throw new KnowledgeSourceError(`"${arg}"`, `is outside the workspace ${workspace}; knowledge files must be inside it`);
}

/** A stored source by key, by file path or URL, or by its (unique) name. */
function findSource(workspace: string, sources: KnowledgeSourceInfo[], arg: string): KnowledgeSourceInfo {
  const byKey = sources.find((s) => s.key === arg);
  if (byKey) return byKey;
  let asSource: string | undefined;
  try {
    asSource = sourceKey(sourceFromArg(workspace, arg, undefined));
  } catch {
    asSource = undefined;
  }
  const bySource = sources.find((s) => s.key === asSource);
  if (bySource) return bySource;
  const byName = sources.filter((s) => s.name === arg);
  const [named, ...alsoNamed] = byName;
  if (named !== undefined && alsoNamed.length === 0) return named;
  if (byName.length > 1) throw new KnowledgeSourceUnknown(`${byName.length} sources are named "${arg}"; give one of their keys: ${byName.map((s) => s.key).join(', ')}`);
  throw new KnowledgeSourceUnknown(`no knowledge source "${arg}" in this workspace (see crewdeck knowledge list)`);
}

function print(json: boolean, value: unknown, human: () => string): number {
  process.stdout.write(json ? `${JSON.stringify(value)}\n` : human());
  return EXIT.ok;
}

function formatIngest(r: IngestResult, style: Style): string {
  const verb = r.status === 'unchanged' ? style.dim('Unchanged') : r.status === 'added' ? style.green('Added') : style.green('Replaced');
  return `${verb} ${style.bold(r.name)} ${style.dim(`(${r.chunks} chunk${r.chunks === 1 ? '' : 's'} · ${r.key})`)}\n`;
}

function formatSource(s: KnowledgeSourceInfo, style: Style): string {
  return `${style.bold(s.name)} ${style.dim(`${s.chunks} chunk${s.chunks === 1 ? '' : 's'} · ingested ${formatTime(s.ingestedAt)}`)}\n  ${s.key}`;
}
