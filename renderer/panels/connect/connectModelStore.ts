import { create } from 'zustand';
import type { HostResponse } from '../../../shared/host-api';
import type { InlineModel } from '../../../shared/model/modelRef';
import type { WorkspaceSettings } from '../../../shared/model/workspace';
import { host } from '../../host/hostContext';
import { useSettingsStore } from '../../stores/settingsStore';
import { untrustedParts, useTrustStore } from '../../stores/trustStore';

export type ConnectChoice = 'local' | 'url' | 'openai';
export type LocalServer = HostResponse<'models.probeLocal'>['servers'][number];

/**
 * Where *Connect a model* stands: `trust` waits for the Trust… flow (a remote URL, or a port the workspace
 * brought); `choose` has the server's model list and waits for a pick; `done` saved the profile as the default.
 */
export type ConnectStage = 'idle' | 'working' | 'trust' | 'choose' | 'done';

export interface ConnectState {
  open: boolean;
  choice: ConnectChoice;
  probing: boolean;
  servers?: LocalServer[];
  stage: ConnectStage;
  /** What the panel is doing, for a person ("Saving…", "Testing the connection…"). */
  step?: string;
  error?: string;
  /** The profile being connected: its name and settings as saved. */
  profile?: { name: string; model: InlineModel };
  /** Models the server listed (test connection). */
  models: string[];
  /** A base URL the save recorded as the user's own model server. */
  entered: string[];

  setOpen(open: boolean): void;
  setChoice(choice: ConnectChoice): void;
  /** Looks for Ollama, LM Studio and vLLM on their usual 127.0.0.1 ports (only now: the user opened the panel). */
  probe(): Promise<void>;
  /** Saves the profile as the default, then (once trusted, if it needs trust) tests it. */
  connect(name: string, model: InlineModel): Promise<void>;
  /** After the Trust… flow: carries on with the test. */
  continueAfterTrust(): Promise<void>;
  /** Saves the picked model into the profile. */
  chooseModel(model: string): Promise<void>;
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** The profile name for a new connection: `base`, or `base-2`… when taken by another profile. */
export function freeProfileName(settings: WorkspaceSettings | undefined, base: string): string {
  const taken = new Set(Object.keys(settings?.models.profiles ?? {}));
  if (!taken.has(base)) return base;
  let n = 2;
  while (taken.has(`${base}-${n}`)) n++;
  return `${base}-${n}`;
}

/** The held parts of this profile (its base URL, or its key sent to it) the workspace has not trusted. */
function heldPartsOf(name: string): string[] {
  const where = `crewdeck.json models.profiles.${name}`;
  return untrustedParts(useTrustStore.getState().status)
    .filter((p) => p.where === where || p.where.startsWith(`${where}.`))
    .map((p) => p.where);
}

async function saveProfile(name: string, model: InlineModel): Promise<{ ok: boolean; entered: string[] }> {
  const settings = useSettingsStore.getState();
  await settings.load();
  const current = useSettingsStore.getState().settings ?? { version: 1 as const, models: { profiles: {} } };
  const next: WorkspaceSettings = { ...current, models: { ...current.models, profiles: { ...current.models.profiles, [name]: model }, default: name } };
  const ok = await useSettingsStore.getState().save(next);
  const after = useSettingsStore.getState();
  if (!ok) throw new Error(after.saveError ?? (after.saveProblems.map((p) => `${p.path}: ${p.message}`).join('; ') || 'the settings were not saved'));
  return { ok, entered: after.entered };
}

export const useConnectModelStore = create<ConnectState>()((set, get) => ({
  open: false,
  choice: 'local',
  probing: false,
  stage: 'idle',
  models: [],
  entered: [],

  setOpen(open) {
    set(open ? { open, stage: 'idle', error: undefined, step: undefined, profile: undefined, models: [], entered: [] } : { open });
    if (open && get().choice === 'local') void get().probe();
  },

  setChoice(choice) {
    set({ choice, error: undefined, stage: get().stage === 'done' ? 'done' : 'idle' });
    if (choice === 'local' && !get().servers && !get().probing) void get().probe();
  },

  async probe() {
    set({ probing: true });
    try {
      const { servers } = await host().invoke('models.probeLocal', {});
      set({ probing: false, servers });
    } catch (e) {
      set({ probing: false, servers: [], error: message(e) });
    }
  },

  async connect(name, model) {
    set({ stage: 'working', step: 'Saving the profile…', error: undefined, profile: { name, model }, models: [] });
    try {
      const { entered } = await saveProfile(name, model);
      set({ entered });
      await useTrustStore.getState().refresh();
      if (heldPartsOf(name).length > 0) {
        set({ stage: 'trust', step: undefined });
        return;
      }
      await testProfile(set, get);
    } catch (e) {
      set({ stage: 'idle', step: undefined, error: message(e) });
    }
  },

  async continueAfterTrust() {
    const { profile, stage } = get();
    if (!profile || stage !== 'trust' || heldPartsOf(profile.name).length > 0) return;
    set({ stage: 'working' });
    await testProfile(set, get);
  },

  async chooseModel(picked) {
    const { profile } = get();
    if (!profile) return;
    const model = { ...profile.model, model: picked };
    set({ stage: 'working', step: 'Saving the model…', error: undefined });
    try {
      await saveProfile(profile.name, model);
      set({ stage: 'done', step: undefined, profile: { name: profile.name, model } });
    } catch (e) {
      set({ stage: 'choose', step: undefined, error: message(e) });
    }
  },
}));

type Set = (partial: Partial<ConnectState>) => void;

/** Tests the saved profile: done when the server lists its model (or lists none), else the model list to pick from. */
async function testProfile(set: Set, get: () => ConnectState): Promise<void> {
  const profile = get().profile;
  if (!profile) return;
  set({ step: 'Testing the connection…' });
  try {
    const result = await host().invoke('settings.testConnection', { model: profile.name });
    if (!result.ok) {
      set({ stage: 'idle', step: undefined, error: `The profile “${profile.name}” is saved, but the server did not answer: ${result.error ?? 'unknown error'}` });
      return;
    }
    const listed = result.models;
    if (listed.length > 0 && !listed.includes(profile.model.model)) {
      set({ stage: 'choose', step: undefined, models: listed });
      return;
    }
    set({ stage: 'done', step: undefined, models: listed });
  } catch (e) {
    set({ stage: 'idle', step: undefined, error: message(e) });
  }
}
