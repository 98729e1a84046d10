import { resolve } from 'node:path';
import type { HostPush } from '../../shared/host-api';
import { SqliteRunStore } from '../store/sqliteRunStore';
import { HostHuman } from './hostHuman';
import { HostMemory } from './hostMemory';
import { HostRuns } from './hostRuns';
import { HostBatches } from './hostBatches';
import { HostTraining } from './hostTraining';
import { HostTeam } from './hostTeam';
import type { HostServiceOptions } from './hostService';
import { HostTools } from './hostTools';
import { warmUpCalculator } from '../tools/calculator';
import { WorkspaceDocuments } from './workspaceDocuments';
import { WorkspaceSettingsFile } from './workspaceSettingsFile';
import { WorkspaceTrust } from '../trust/workspaceTrust';
import { refuseRendererGrants, type TrustConfirmer } from '../trust/trustConfirmation';
import { noteWorkspaceBaseUrls } from '../trust/enteredBaseUrls';
import { registerEnvSecrets } from '../secretEnv';

/** What the host service of one workspace is made of: its stores, and what serves each family of channels. */
export interface HostParts {
  workspace: string;
  env: NodeJS.ProcessEnv;
  transport: HostServiceOptions['transport'];
  confirmTrust: TrustConfirmer;
  /** Who hears the pushes; `push` tells each of them. */
  listeners: Set<(push: HostPush) => void>;
  push: (message: HostPush) => void;
  store: SqliteRunStore;
  documents: WorkspaceDocuments;
  settingsFile: WorkspaceSettingsFile;
  human: HostHuman;
  memory: HostMemory;
  tools: HostTools;
  trust: WorkspaceTrust;
  runs: HostRuns;
  batches: HostBatches;
  team: HostTeam;
  training: HostTraining;
}

/** Opens the parts of the host over a workspace folder: documents on disk, runs in its SQLite store. */
export function openHostParts(options: HostServiceOptions): HostParts {
  const workspace = resolve(options.workspace);
  const env = options.env ?? process.env;
  // Keys in the environment are cut from every reply and push from the start (a memory a model wrote
  // before redaction existed, a stored error), whatever reads them later.
  registerEnvSecrets(env);
  const now = Date.now;
  const listeners = new Set<(push: HostPush) => void>();
  const push = (message: HostPush) => {
    for (const listener of listeners) {
      try {
        listener(message);
      } catch {
        // A broken subscriber (a closed socket) must not stop a run or the other subscribers.
      }
    }
  };
  const store = SqliteRunStore.open(workspace);
  const documents = new WorkspaceDocuments(workspace);
  const settingsFile = new WorkspaceSettingsFile(workspace);
  const human = new HostHuman(now);
  // One memory store for the memory browser and the runs, so what a run writes shows at once.
  const memory = new HostMemory(workspace, env, push);
  const tools = new HostTools({ workspace, env });
  const trust = new WorkspaceTrust(workspace);
  // What base URLs the workspace holds as it opens are its own, not the user's (enteredBaseUrls.ts).
  noteWorkspaceBaseUrls(workspace);
  const confirmTrust = options.confirmTrust ?? refuseRendererGrants;
  const runs = new HostRuns({ workspace, store, human, env, push, now, memory: () => memory.store() });
  const batches = new HostBatches({ workspace, runs, store, push, now });
  listeners.add((message) => batches.receive(message));
  const team = new HostTeam({ workspace, env, store, push, settings: () => settingsFile.read().settings });
  const training = new HostTraining({ workspace, store, human, env, push, now, memory: () => memory.store() });
  // The app lives long: load mathjs (about 2 s on a small machine) before a run needs it.
  setTimeout(warmUpCalculator, 500).unref();
  const transport = options.transport;
  return { workspace, env, transport, confirmTrust, listeners, push, store, documents, settingsFile, human, memory, tools, trust, runs, batches, team, training };
}
