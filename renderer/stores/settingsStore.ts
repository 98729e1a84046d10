import { create } from 'zustand';
import type { HostResponse } from '../../shared/host-api';
import type { InlineModel } from '../../shared/model/modelRef';
import type { WorkspaceSettings } from '../../shared/model/workspace';
import { host } from '../host/hostContext';
import { HostCallError } from '../host/hostError';
import { useTrustStore } from './trustStore';

export interface Problem {
  path: string;
  message: string;
}

export interface ConnectionCheck {
  running: boolean;
  result?: HostResponse<'settings.testConnection'>;
  /** The request itself was refused (e.g. the profile does not validate). */
  error?: string;
}

type Secrets = HostResponse<'secrets.list'>;

/** Workspace settings (model profiles) and API keys, as the settings view edits them. */
export interface SettingsState {
  loaded: boolean;
  loadError?: string;
  settings?: WorkspaceSettings;
  /** Problems of the settings file on disk. */
  fileProblems: Problem[];
  /** Environment variables the profiles read keys from, and whether each is set. */
  keys: { name: string; present: boolean }[];
  secrets?: Secrets;
  saving: boolean;
  saveProblems: Problem[];
  saveError?: string;
  savedAt?: number;
  /** Loopback base URLs the last save recorded as the user's own model servers for this workspace. */
  entered: string[];
  /** Connection checks by profile name. */
  checks: Record<string, ConnectionCheck>;
  secretError?: string;

  load(): Promise<void>;
  /** Saves; resolves true when the host accepted the settings. */
  save(settings: WorkspaceSettings): Promise<boolean>;
  testConnection(profileName: string, model: InlineModel): Promise<void>;
  setSecret(name: string, value: string): Promise<boolean>;
  deleteSecret(name: string): Promise<void>;
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

export const useSettingsStore = create<SettingsState>()((set, get) => ({
  loaded: false,
  fileProblems: [],
  keys: [],
  saving: false,
  saveProblems: [],
  entered: [],
  checks: {},

  async load() {
    try {
      const [got, secrets] = await Promise.all([host().invoke('settings.get', {}), host().invoke('secrets.list', {})]);
      set({ loaded: true, loadError: undefined, settings: got.settings, fileProblems: got.problems, keys: got.keys, secrets });
    } catch (e) {
      set({ loaded: true, loadError: message(e) });
    }
  },

  async save(settings) {
    set({ saving: true, saveProblems: [], saveError: undefined });
    try {
      const { problems, entered } = await host().invoke('settings.save', { settings });
      if (problems.length > 0) {
        set({ saving: false, saveProblems: problems });
        return false;
      }
      set({ saving: false, settings, savedAt: Date.now(), entered: entered ?? [] });
      void get().load();
      // A base URL saved here may need trust (a remote one) or be the user's own now (a loopback one).
      void useTrustStore.getState().refresh();
      return true;
    } catch (e) {
      set({ saving: false, saveError: message(e), saveProblems: e instanceof HostCallError ? (e.problems ?? []) : [] });
      return false;
    }
  },

  async testConnection(profileName, model) {
    set({ checks: { ...get().checks, [profileName]: { running: true } } });
    let check: ConnectionCheck;
    try {
      check = { running: false, result: await host().invoke('settings.testConnection', { model }) };
    } catch (e) {
      const problems = e instanceof HostCallError && e.problems?.length ? `: ${e.problems.map((p) => `${p.path.replace(/^model\.?/, '') || 'model'} ${p.message}`).join('; ')}` : '';
      check = { running: false, error: e instanceof HostCallError && problems ? `The profile is not valid${problems}` : message(e) };
    }
    set({ checks: { ...get().checks, [profileName]: check } });
  },

  async setSecret(name, value) {
    set({ secretError: undefined });
    try {
      await host().invoke('secrets.set', { name, value });
      const secrets = await host().invoke('secrets.list', {});
      set({ secrets });
      return true;
    } catch (e) {
      set({ secretError: message(e) });
      return false;
    }
  },

  async deleteSecret(name) {
    set({ secretError: undefined });
    try {
      await host().invoke('secrets.delete', { name });
      set({ secrets: await host().invoke('secrets.list', {}) });
    } catch (e) {
      set({ secretError: message(e) });
    }
  },
}));
