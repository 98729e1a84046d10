import { isSecretEnvName } from '../shared/model/secretEnvNames';
import type { WorkspaceSettings } from '../shared/model/workspace';
import { registerSecret } from './redactSecrets';

/** A value found by its variable's name alone is taken for a key only from this length (`DEBUG_KEY=true` is not one). */
const MIN_FOUND_KEY_CHARS = 8;
const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/**
 * Registers for redaction the values of the environment's key variables (`isSecretEnvName`): every
 * output of the process is cleaned of them before anything reads them, so a command that never opens a
 * model (`crewdeck memory list`, `runs show`) still cuts a key a model once echoed.
 */
export function registerEnvSecrets(env: NodeJS.ProcessEnv = process.env): void {
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && value.length >= MIN_FOUND_KEY_CHARS && isSecretEnvName(name)) registerSecret(value);
  }
}

/**
 * Registers the values of the variables the workspace's settings name: models' and the embedder's
 * `apiKeyEnv`, and the `${VAR}`s of MCP servers (whatever their names look like).
 */
export function registerWorkspaceSecrets(settings: WorkspaceSettings | undefined, env: NodeJS.ProcessEnv = process.env): void {
  if (!settings) return;
  const names = new Set<string>();
  for (const profile of Object.values(settings.models.profiles)) if (profile.apiKeyEnv) names.add(profile.apiKeyEnv);
  if (settings.memory?.embedder && 'apiKeyEnv' in settings.memory.embedder && settings.memory.embedder.apiKeyEnv) names.add(settings.memory.embedder.apiKeyEnv);
  // Every transport's `${VAR}`s (env of a stdio server, URL and headers of an HTTP one, and any to come).
  for (const m of JSON.stringify(settings.mcp?.servers ?? {}).matchAll(REFERENCE)) if (m[1]) names.add(m[1]);
  for (const name of names) registerSecret(env[name]);
}
