import { readFileSync } from 'node:fs';
import { resolve as resolvePath } from 'node:path';
import type { InlineModel, ModelRef } from '../../shared/model/modelRef';
import type { WorkspaceSettings } from '../../shared/model/workspace';
import { findPrice } from '../../shared/model/prices';
import type { ChatModel } from './chatModel';
import { OpenAIChatModel } from './openaiProvider';
import { parseScript, ScriptInvalid, type Script } from './script';
import { ScriptedChatModel } from './scriptedProvider';
import { RecordedChatModel } from './recordedProvider';
import type { Recording } from '../offline/recording';
import { keyHeldPart } from '../trust/heldParts';
import { modelHostHeldPart } from '../trust/networkParts';
import { userModelServers } from '../trust/userModelServers';
import type { TrustGate } from '../trust/workspaceTrust';

export const DEFAULT_OPENAI_MODEL = 'gpt-4.1-mini';

/** Model settings that cannot produce a model (missing key variable, missing script…). */
export class ModelConfigInvalid extends Error {
  override name = 'ModelConfigInvalid';
}

/** A model reference names a profile the workspace settings do not define. */
export class ModelProfileNotFound extends ModelConfigInvalid {
  override name = 'ModelProfileNotFound';
  constructor(
    readonly profile: string,
    readonly knownProfiles: string[],
  ) {
    super(
      `Unknown model profile "${profile}"; ` +
        (knownProfiles.length > 0 ? `known profiles: ${knownProfiles.join(', ')}` : 'the workspace defines no model profiles'),
    );
  }
}

export interface ModelResolverOptions {
  settings?: WorkspaceSettings;
  env?: NodeJS.ProcessEnv;
  /** Folder of the document; script paths are relative to it. */
  baseDir: string;
  /** Use this profile for every reference (e.g. `--model` on the CLI). */
  forceProfile?: string;
  /**
   * Asked before a model that sends its `apiKeyEnv`, or with no key its prompts, to a `baseUrl` of its own
   * (not one of the user's model servers, `userModelServers.ts`) is made (workspace trust).
   */
  trust?: TrustGate;
  /** An offline re-run: every model answers from this recording; no provider is made, no key is needed. */
  recording?: Recording;
}

/**
 * Turns model references into ChatModel instances (SPEC §9). Instances are cached by their resolved
 * settings, so agents that share a reference share one model (and one script state).
 */
export class ModelResolver {
  private readonly env: NodeJS.ProcessEnv;
  private readonly cache = new Map<string, ChatModel>();

  constructor(private readonly options: ModelResolverOptions) {
    this.env = options.env ?? process.env;
  }

  resolve(ref: ModelRef | undefined): ChatModel {
    const settings = this.settingsFor(ref);
    const key = JSON.stringify(this.cacheKey(settings));
    let model = this.cache.get(key);
    if (!model) {
      model = this.create(settings, this.whereOf(ref, settings));
      if (!this.options.recording) model.price = findPrice(settings.provider, settings.model, this.options.settings?.prices);
      this.cache.set(key, model);
    }
    return model;
  }

  /** "provider:model", e.g. `scripted:demo` or `openai:gpt-4.1-mini`. */
  describe(ref: ModelRef | undefined): string {
    const settings = this.settingsFor(ref);
    return `${settings.provider}:${settings.model}`;
  }

  /** The inline settings a reference stands for. */
  settingsFor(ref: ModelRef | undefined): InlineModel {
    if (this.options.forceProfile !== undefined) return this.profile(this.options.forceProfile);
    if (typeof ref === 'string') return this.profile(ref);
    if (ref !== undefined) return ref;
    const defaultProfile = this.options.settings?.models.default;
    if (defaultProfile !== undefined) return this.profile(defaultProfile);
    return { provider: 'openai', model: this.env.OPENAI_MODEL || DEFAULT_OPENAI_MODEL };
  }

  /** Where a reference's settings are declared, for the trust refusal: the profile, else the model. */
  private whereOf(ref: ModelRef | undefined, settings: InlineModel): string {
    const profile = this.options.forceProfile ?? (typeof ref === 'string' ? ref : ref === undefined ? this.options.settings?.models.default : undefined);
    return profile !== undefined ? `crewdeck.json models.profiles.${profile}` : `model ${settings.provider}:${settings.model}`;
  }

  private profile(name: string): InlineModel {
    const profiles = this.options.settings?.models.profiles ?? {};
    const found = Object.prototype.hasOwnProperty.call(profiles, name) ? profiles[name] : undefined;
    if (!found) throw new ModelProfileNotFound(name, Object.keys(profiles));
    return found;
  }

  private cacheKey(settings: InlineModel): InlineModel {
    if (typeof settings.script !== 'string') return settings;
    return { ...settings, script: resolvePath(this.options.baseDir, settings.script) };
  }

  private create(settings: InlineModel, where: string): ChatModel {
    if (this.options.recording) {
      const native = settings.nativeTools ?? (settings.provider === 'scripted' ? this.loadScript(settings).script.nativeTools : undefined) ?? true;
      return new RecordedChatModel(this.options.recording, settings, native);
    }
    if (settings.provider === 'scripted') {
      const { script, source } = this.loadScript(settings);
      return new ScriptedChatModel(script, {
        model: settings.model,
        source,
        nativeTools: settings.nativeTools,
        stream: settings.stream,
      });
    }
    const held = keyHeldPart(settings, where) ?? modelHostHeldPart(settings, `${where}.baseUrl`, userModelServers(process.env, this.env.OPENAI_BASE_URL));
    if (held) this.options.trust?.require(held);
    return new OpenAIChatModel({
      model: settings.model,
      baseUrl: settings.baseUrl,
      apiKey: this.apiKey(settings),
      temperature: settings.temperature,
      maxTokens: settings.maxTokens,
      nativeTools: settings.nativeTools,
      stream: settings.stream,
      timeoutMs: settings.timeoutMs,
      maxRetries: settings.maxRetries,
      env: this.env,
    });
  }

  private apiKey(settings: InlineModel): string | undefined {
    if (settings.apiKeyEnv === undefined) {
      // The provider falls back to OPENAI_API_KEY (not for a base URL of the model's own: a local server needs no key).
      if (!this.env.OPENAI_API_KEY && !settings.baseUrl && !this.env.OPENAI_BASE_URL) {
        throw new ModelConfigInvalid(
          `Model ${settings.provider}:${settings.model} needs an API key: set OPENAI_API_KEY, or give the model ` +
            'a baseUrl for a local OpenAI-compatible server (Ollama, LM Studio…), or run it on another model profile (--model in the CLI; Settings and the run dialog in the app)',
        );
      }
      return undefined;
    }
    const key = this.env[settings.apiKeyEnv];
    if (!key) {
      throw new ModelConfigInvalid(
        `Model ${settings.provider}:${settings.model} reads its API key from the environment variable ` +
          `${settings.apiKeyEnv}, which is not set`,
      );
    }
    return key;
  }

  private loadScript(settings: InlineModel): { script: Script; source: string } {
    const ref = settings.script;
    if (ref === undefined) {
      throw new ModelConfigInvalid(`Scripted model "${settings.model}" needs a script (a file path or an inline script)`);
    }
    if (typeof ref !== 'string') {
      const source = `inline script of scripted:${settings.model}`;
      return { script: parseScript(ref, source), source };
    }
    const file = resolvePath(this.options.baseDir, ref);
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'file not found' : (error as Error).message;
      throw new ScriptInvalid(file, [{ path: '(file)', message: `cannot read the script: ${reason}` }]);
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new ScriptInvalid(file, [{ path: '(file)', message: `not valid JSON: ${(error as Error).message}` }]);
    }
    return { script: parseScript(value, file), source: file };
  }
}
