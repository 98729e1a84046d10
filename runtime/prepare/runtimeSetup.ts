import { relative, resolve, sep } from 'node:path';
import type { WorkspaceSettings } from '../../shared/model/workspace';
import { unattendedHuman, type HumanChannel } from '../human/humanChannel';
import type { RunMemoryStore } from '../memory/runMemory';
import type { RunStore } from '../store/types';
import type { AfterToolHook, BeforeToolHook } from '../tools/policyGate';
import { createBuiltinRegistry, type ToolRegistry } from '../tools/registry';
import { workspaceSuggestions, type SuggestionSource } from '../training/suggestionSource';
import { WorkspaceTrust, type TrustGate } from '../trust/workspaceTrust';
import type { RuntimeOptions } from '../runtimeApi';

/** A runtime's options with their defaults filled in: what every run of it is prepared from. */
export interface RuntimeSetup {
  /** The workspace, absolute. */
  workspace: string;
  tools: ToolRegistry;
  human: HumanChannel;
  now: () => number;
  trust: TrustGate;
  suggestions: SuggestionSource;
  store?: RunStore;
  hooks?: { before?: BeforeToolHook[]; after?: AfterToolHook[] };
  settings?: WorkspaceSettings;
  env?: NodeJS.ProcessEnv;
  forceProfile?: string;
  /** Memory given by the host; by default the workspace's store, opened on first use. */
  memory?: RunMemoryStore;
}

export function runtimeSetup(options: RuntimeOptions): RuntimeSetup {
  const workspace = resolve(options.workspace);
  const tools = options.tools ?? createBuiltinRegistry();
  const human = options.human ?? unattendedHuman;
  const now = options.now ?? Date.now;
  const trust = options.trust ?? new WorkspaceTrust(workspace);
  const suggestions = options.suggestions ?? workspaceSuggestions(workspace);
  return {
    workspace,
    tools,
    human,
    now,
    trust,
    suggestions,
    store: options.store,
    hooks: options.hooks,
    settings: options.settings,
    env: options.env,
    forceProfile: options.forceProfile,
    memory: options.memory,
  };
}

/** A path inside the workspace as runs store it: relative to the workspace, with forward slashes on every platform. */
export function workspaceRelative(workspace: string, path: string | undefined): string | undefined {
  return path ? relative(workspace, path).split(sep).join('/') : undefined;
}
