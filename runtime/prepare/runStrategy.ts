import { dirname } from 'node:path';
import { ModelResolver } from '../llm/resolveModel';
import type { RunMemoryStore } from '../memory/runMemory';
import type { Embedder } from '../memory/types';
import type { Recording } from '../offline/recording';
import type { ToolRegistry } from '../tools/registry';
import type { UserModelServers } from '../trust/userModelServers';
import type { RuntimeSetup } from './runtimeSetup';

/** What a document may widen the network to, asked of the user's trust before its run opens. */
export interface RunReach {
  /** Tools' hosts (allowedHosts, search base URLs, pinned URLs). */
  tools: boolean;
  /** Knowledge URLs on local, private or metadata hosts. */
  knowledge: boolean;
  /** Models on hosts of their own, beside the user's model servers; none when undefined. */
  servers: UserModelServers | undefined;
}

/** The parts one run is made of: its models, tools, memory and reach. */
export interface RunParts {
  /** Offline: the run's own fresh copy of the recording it answers from (its calls counted from 1). */
  readonly recording: Recording | undefined;
  /** Models for a document at this absolute path (scripted models' files resolve from its folder); the workspace's without one. */
  models(documentPath: string | undefined): ModelResolver;
  /**
   * Runs `run` with the run's tools: the MCP servers its documents name are started for it (their tool
   * schemas must be known before it opens), shared by its tasks and stopped when it ends; offline, their
   * recorded stand-ins.
   */
  withTools<T>(servers: Set<string>, run: (tools: ToolRegistry) => Promise<T>): Promise<T>;
  /** The memory of a run that remembers. */
  memory(): Promise<RunMemoryStore>;
  /** What the run's documents may reach; asked again each time a flow method loads a crew file. */
  reach(): RunReach;
}

/** Online or offline, chosen once per runtime: each run begins its own parts from it. */
export interface RunStrategy {
  /** The embedder of the runs' knowledge and of the search tools (one function, shared by all of them). */
  readonly embedder: () => Promise<Embedder>;
  /** A new run's parts. */
  begin(): RunParts;
}

/** The model resolver of one run; with a recording, every model answers from it and no provider is made. */
export function modelResolver(setup: RuntimeSetup, documentPath: string | undefined, recording: Recording | undefined): ModelResolver {
  return new ModelResolver({
    settings: setup.settings,
    env: setup.env,
    baseDir: documentPath ? dirname(documentPath) : setup.workspace,
    forceProfile: setup.forceProfile,
    trust: setup.trust,
    recording,
  });
}
