import { resolve } from 'node:path';
import type { CrewDocument } from '../../shared/model/crew';
import type { FlowDocument } from '../../shared/model/flow';
import type { KickoffRequest } from '../crew/kickoff';
import type { FlowDeps } from '../flow/bodies/types';
import { createToolKnowledge } from '../knowledge/toolKnowledge';
import type { ToolRegistry } from '../tools/registry';
import type { ToolServices } from '../tools/tool';
import { documentReachParts } from '../trust/networkParts';
import { requireTrusted } from '../trust/workspaceTrust';
import type { RuntimeOptions } from '../runtimeApi';
import { requireDocumentReach } from './documentReach';
import { offlineStrategy } from './offlineStrategy';
import { onlineStrategy } from './onlineStrategy';
import type { RunParts, RunStrategy } from './runStrategy';
import { runtimeSetup, type RuntimeSetup } from './runtimeSetup';

/** What every run of one runtime is prepared from: its options resolved and its strategy, chosen once. */
export interface RunPreparation {
  readonly setup: RuntimeSetup;
  readonly strategy: RunStrategy;
  /** Tools that reach providers read their keys here and search with the workspace's embedder. */
  readonly toolServices: ToolServices;
}

/** Online, or (with `options.offline`) an offline re-run answering from the recording. */
export function runPreparation(options: RuntimeOptions): RunPreparation {
  const setup = runtimeSetup(options);
  const strategy = options.offline ? offlineStrategy(setup, options.offline) : onlineStrategy(setup);
  const toolServices = { env: setup.env ?? process.env, knowledge: createToolKnowledge(setup.workspace, strategy.embedder) };
  return { setup, strategy, toolServices };
}

/** One run begun: its parts, and its document's reach trusted (WorkspaceUntrusted otherwise) before it opens. */
export function prepareRun(prep: RunPreparation, doc: CrewDocument | FlowDocument, documentPath: string | undefined): RunParts {
  const parts = prep.strategy.begin();
  requireDocumentReach(prep.setup, doc, documentPath, parts.reach());
  return parts;
}

/** What every kickoff of a crew takes from the runtime and the run's preparation. */
export type CrewKickoffBase = Pick<KickoffRequest, 'workspace' | 'tools' | 'human' | 'store' | 'hooks' | 'now' | 'suggestions' | 'embedder' | 'toolServices' | 'memory' | 'recording'>;

/** The run's tools, its memory when the crew remembers, its recording offline. */
export async function crewKickoffBase(prep: RunPreparation, parts: RunParts, doc: CrewDocument, tools: ToolRegistry): Promise<CrewKickoffBase> {
  const { workspace, human, store, hooks, now, suggestions } = prep.setup;
  return {
    workspace,
    human,
    store,
    hooks,
    now,
    suggestions,
    embedder: prep.strategy.embedder,
    toolServices: prep.toolServices,
    tools,
    memory: doc.memory?.enabled ? await parts.memory() : undefined,
    recording: parts.recording,
  };
}

/** What a flow's methods need from around the run: models per crew file, reach asked at each load, memory when a method may remember. */
export async function flowDeps(prep: RunPreparation, parts: RunParts, doc: FlowDocument, tools: ToolRegistry): Promise<FlowDeps> {
  const { workspace, human, hooks, suggestions, trust } = prep.setup;
  return {
    workspace,
    models: parts.models(undefined),
    modelsFor: (path) => parts.models(path ? resolve(workspace, path) : undefined),
    requireReach: (crew, source) => requireTrusted(trust, documentReachParts(crew, source, parts.reach())),
    tools,
    human,
    hooks,
    suggestions,
    embedder: prep.strategy.embedder,
    toolServices: prep.toolServices,
    recording: parts.recording,
    memory: remembers(doc) ? await parts.memory() : undefined,
  };
}

/** Crews and agents inside the flow may remember, and reviews that learn; other methods never touch memory. */
function remembers(doc: FlowDocument): boolean {
  return doc.methods.some((m) => m.body.type === 'crew' || (m.body.type === 'agent' && m.body.agent.memory) || (m.body.type === 'human_feedback' && m.body.learn));
}
