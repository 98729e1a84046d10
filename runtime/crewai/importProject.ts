import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import type { CrewDocument } from '../../shared/model/crew';
import { crewWarnings } from '../../shared/model/crewWarnings';
import type { FlowDocument } from '../../shared/model/flow';
import type { InlineModel } from '../../shared/model/modelRef';
import type { Problem } from '../../shared/model/problems';
import { discoverProject, siteOf, type FoundCrew } from './construct/findCrews';
import type { Kickoff } from './construct/frames';
import type { ObjVal } from './construct/values';
import { CrewAiConfigKeyMissing, CrewAiImportInvalid, CrewAiProjectNotFound } from './crewAiErrors';
import { pythonToolServer, type PythonToolServerEntry } from './crewAiTools';
import { emptyExtras, MapContext } from './crews/mapContext';
import { mapCrew } from './crews/mapCrew';
import { chainedCrewsFlow } from './crews/chainedCrews';
import { crewBaseNotes } from './crews/crewBaseNotes';
import { crewIdentities } from './crews/crewNames';
import { importCrewAiFlow } from './importFlow';
import { ProjectSource } from './project/projectSource';
import type { UnmappedItem } from './unmapped';

export type { UnmappedItem } from './unmapped';

export interface CrewAiImport {
  /** The first crew of the project. */
  doc: CrewDocument;
  /** Every crew the project builds that could be read, in the order found. */
  crews: CrewDocument[];
  /**
   * A Flow project's flow (its first Flow class), or the flow that runs crews a plain script chains: the
   * main document; its crew bodies name the crews as `<crew id>.crew.json`.
   */
  flow?: FlowDocument;
  /** Things each crew may do but probably does not mean (duplicate roles, empty expected outputs), per crew id. */
  warnings: { crewId: string; warnings: Problem[] }[];
  /** Everything in the project that has no Crewdeck equivalent, or could not be read, with where and why. */
  unmapped: UnmappedItem[];
  /** Project files that were read, relative to the project folder. */
  sourceFiles: string[];
  /** Model profiles the documents name, for the output workspace's crewdeck.json. */
  profiles: Record<string, InlineModel>;
  /** Data files the documents use: copy `from` (absolute) to `path` (relative to the output workspace). */
  files: { path: string; from: string }[];
  /** The project's own Python tools as MCP servers for crewdeck.json (`mcp.servers`), when it has any the documents use. */
  mcpServers: Record<string, PythonToolServerEntry>;
}

/**
 * Reads (never runs) a CrewAI project: its Python is parsed (python/) and followed (construct/) far
 * enough to know every crew it builds — @CrewBase classes with their YAML, and Agent/Task/Crew made in
 * plain Python in any module — and its Flow. What one part lacks does not sink the rest: a crew that
 * cannot be read is left out with the reason, everything else imports.
 */
export async function importCrewAiProject(dir: string): Promise<CrewAiImport> {
  const root = resolve(dir);
  if (!existsSync(root) || !statSync(root).isDirectory()) throw new CrewAiProjectNotFound(root, 'the folder does not exist');
  const src = await ProjectSource.open(root);
  const found = discoverProject(src);
  const extras = emptyExtras();
  const ctx = new MapContext(src, found.ev, extras);
  const identities = crewIdentities(src, found);
  const crews: CrewDocument[] = [];
  const byClass = new Map<string, string>();
  const bySite = new Map<string, string>();
  const missingKeys: { at: string; reason: string; detail: string }[] = [];
  for (const one of found.crews) {
    const identity = identities.get(one)!;
    const kickoffs = found.ev.record.kickoffs.filter((k) => k.target.cls === 'Crew' && siteOf(k.target) === siteOf(one.crew) && k.inputs).map((k) => k.inputs!);
    const mapped = mapCrew(ctx, one, identity, kickoffs);
    if (!mapped.ok) {
      ctx.note(mapped.at ?? ctx.where(one.crew.at), `crew ${identity.id}`, `left out: ${mapped.why}`);
      if (mapped.missing) missingKeys.push({ at: mapped.at ?? ctx.where(one.crew.at), ...mapped.missing });
      continue;
    }
    crews.push(mapped.doc);
    bySite.set(siteOf(one.crew), mapped.doc.id);
    noteSources(extras.sourceFiles, one);
    if (one.owner) byClass.set(one.owner.cls.name, `${mapped.doc.id}.crew.json`);
  }
  crewBaseNotes(ctx, found);
  for (const k of found.ev.record.kickoffs) if (crews.length > 0) extras.sourceFiles.add(k.at.file);
  if (existsSync(join(root, 'pyproject.toml'))) extras.sourceFiles.add('pyproject.toml');
  const flowClass = found.flows[0];
  const flow = flowClass
    ? importCrewAiFlow(root, src.fileOf(flowClass.mod), flowId(root, flowClass.name), (className) => byClass.get(className), extras.unmapped)?.doc
    : chainOf(ctx, found.ev.record.kickoffs, (crew) => bySite.get(siteOf(crew)), flowId(root, 'Chained crews'));
  if (flowClass) extras.sourceFiles.add(flowClass.mod.file);
  extras.unmapped.unshift(...src.syntaxProblems());
  if (crews.length === 0 && !flow) {
    const missing = missingKeys[0];
    if (missing && found.crews.length === 1) throw new CrewAiConfigKeyMissing(missing.at, missing.reason, missing.detail);
    throw found.ev.yamlErrors[0] ?? nothingImported(root, found.crews.length, extras.unmapped);
  }
  return {
    doc: crews[0] ?? ({} as CrewDocument),
    crews,
    ...(flow ? { flow } : {}),
    warnings: crews.map((crew) => ({ crewId: crew.id, warnings: crewWarnings(crew) })).filter((w) => w.warnings.length > 0),
    unmapped: extras.unmapped,
    sourceFiles: [...extras.sourceFiles],
    profiles: Object.fromEntries(extras.profiles),
    files: [...extras.files].map(([path, from]) => ({ path, from })),
    mcpServers: pythonServers(root, extras.pythonTools),
  };
}

/** Crews kicked off one after another in plain Python, each fed an earlier one's result: a flow. */
function chainOf(ctx: MapContext, kickoffs: Kickoff[], crewIdOf: (crew: ObjVal) => string | undefined, id: string): FlowDocument | undefined {
  const chain = chainedCrewsFlow(kickoffs, crewIdOf, id);
  for (const n of chain?.notes ?? []) ctx.note(ctx.where(n.at), n.item, n.why);
  return chain?.flow;
}

/** Why nothing came of the project: it builds no crew or flow, or none of them could be read. */
function nothingImported(root: string, crewsFound: number, unmapped: UnmappedItem[]): Error {
  if (crewsFound === 0) {
    return new CrewAiProjectNotFound(root, 'no crew (a @CrewBase class, or Crew(...) built in Python) and no Flow class anywhere in it (node_modules, .venv and .git are not searched)');
  }
  const problems = unmapped.filter((u) => /^crew /.test(u.item) || u.item === 'Python syntax').map((u) => ({ path: u.path, message: u.why }));
  return new CrewAiImportInvalid(root, problems);
}

function noteSources(files: Set<string>, one: FoundCrew): void {
  files.add(one.crew.at.file);
  const add = (v: unknown) => {
    const obj = v as ObjVal;
    if (obj?.t !== 'obj') return;
    files.add(obj.at.file);
    const config = obj.args.kw.get('config');
    if (config?.t === 'dict' && config.at) files.add(config.at.file);
  };
  for (const key of ['agents', 'tasks']) {
    const list = one.crew.args.kw.get(key);
    if (list?.t === 'list') list.items.forEach(add);
  }
}

/** The flow's id: the project's name in pyproject.toml, else the Flow class's name in snake case. */
function flowId(root: string, className: string): string {
  const pyproject = join(root, 'pyproject.toml');
  const text = existsSync(pyproject) ? readFileSync(pyproject, 'utf8').slice(0, 200_000) : '';
  const name = /^\[project\][^[]*?^name\s*=\s*["']([^"'\n]+)["']/m.exec(text)?.[1];
  const raw = name ?? className.replace(/(?<=[a-z0-9])(?=[A-Z])/g, '_').toLowerCase();
  return raw.replace(/[^A-Za-z0-9_-]/g, '_') || 'crewai_flow';
}

/** One Python tool server per project, when its documents use any of its own tools. */
function pythonServers(root: string, tools: Map<string, Set<string>>): Record<string, PythonToolServerEntry> {
  if (tools.size === 0) return {};
  const path = existsSync(join(root, 'src')) ? ['src'] : ['.'];
  const { name, entry } = pythonToolServer(root, [...tools.keys()], path);
  return { [name]: entry };
}

export { basename };
