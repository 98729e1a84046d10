import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { userConfigDir } from './trustStore';

export const USER_SETTINGS_FILE = 'settings.json';

/**
 * The model servers the user calls their own, outside every workspace: `modelServers` in
 * `settings.json` of the user's config folder (`$CREWDECK_CONFIG_DIR`, else
 * `$XDG_CONFIG_HOME/crewdeck`, else `~/.config/crewdeck`), as `allowedHosts` writes hosts
 * (`127.0.0.1:11434`, `localhost`, `*.lan.example`), and the host of `OPENAI_BASE_URL`. A workspace
 * model whose `baseUrl` is on one of them needs no trust: the user already sends prompts there.
 */
export interface UserModelServers {
  /** Host patterns (`host`, `host:port`, `*.example.com`). */
  hosts: readonly string[];
}

export function userModelServers(env: NodeJS.ProcessEnv = process.env, openaiBaseUrl: string | undefined = env.OPENAI_BASE_URL): UserModelServers {
  const hosts: string[] = [];
  try {
    const value = JSON.parse(readFileSync(join(userConfigDir(env), USER_SETTINGS_FILE), 'utf8')) as { modelServers?: unknown };
    if (Array.isArray(value.modelServers)) for (const h of value.modelServers) if (typeof h === 'string' && h.trim() !== '') hosts.push(h.trim());
  } catch {
    // no user settings (or unreadable): no model servers of the user's besides OPENAI_BASE_URL
  }
  if (openaiBaseUrl) {
    try {
      hosts.push(new URL(openaiBaseUrl).host);
    } catch {
      // not a URL: the provider will say so
    }
  }
  return { hosts };
}
