import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { defaultPort } from '../tools/guardedFetch';
import { userConfigDir } from './trustStore';

export const USER_SETTINGS_FILE = 'settings.json';

/**
 * The model servers the user calls their own, outside every workspace: `modelServers` in
 * `settings.json` of the user's config folder (`$CREWDECK_CONFIG_DIR`, else
 * `$XDG_CONFIG_HOME/crewdeck`, else `~/.config/crewdeck`), as `allowedHosts` writes hosts
 * (`127.0.0.1:11434`, `localhost`, `*.lan.example`), and the host and port of `OPENAI_BASE_URL` (its scheme's default port when it names none). A workspace
 * model whose `baseUrl` is on one of them needs no trust: the user already sends prompts there.
 */
export interface UserModelServers {
  /** Host patterns (`host`, `host:port`, `*.example.com`). */
  hosts: readonly string[];
  /**
   * Why the settings file's `modelServers` do not count (file, field, value), when it exists but cannot
   * be used: a refusal then says so, instead of leaving the user to wonder why their server needs trust.
   */
  problem?: string;
}

export function userModelServers(env: NodeJS.ProcessEnv = process.env, openaiBaseUrl: string | undefined = env.OPENAI_BASE_URL): UserModelServers {
  const file = join(userConfigDir(env), USER_SETTINGS_FILE);
  const listed = settingsServers(file);
  const hosts = [...listed.hosts];
  const problem = listed.problem;
  if (openaiBaseUrl) {
    try {
      // With its port, the default one when the URL has none: `http://localhost/v1` is `localhost:80`,
      // not every port of localhost.
      const url = new URL(openaiBaseUrl);
      const port = url.port || defaultPort(url.protocol);
      hosts.push(port ? `${url.hostname}:${port}` : url.host);
    } catch {
      // not a URL: the provider will say so
    }
  }
  return problem ? { hosts, problem } : { hosts };
}

/**
 * The settings file's `modelServers`, read again only when the file changed (its inode, size, change
 * and modification times): every run asks, twice (its document's reach and its models' hosts), and a
 * batch of 1,000 rows read and parsed the file 2,000 times.
 */
let lastSettings: { file: string; stamp: string; servers: UserModelServers } | undefined;

function settingsServers(file: string): UserModelServers {
  const st = statSync(file, { bigint: true, throwIfNoEntry: false });
  const stamp = st ? `${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}` : 'none';
  if (lastSettings?.file === file && lastSettings.stamp === stamp) return lastSettings.servers;
  const servers = readSettingsServers(file);
  lastSettings = { file, stamp, servers };
  return servers;
}

function readSettingsServers(file: string): UserModelServers {
  const hosts: string[] = [];
  let problem: string | undefined;
  let text: string | undefined;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    // no user settings: no model servers of the user's besides OPENAI_BASE_URL
  }
  if (text !== undefined) {
    try {
      const value = JSON.parse(text) as { modelServers?: unknown } | null;
      const listed = value === null || typeof value !== 'object' ? undefined : value.modelServers;
      if (value === null || typeof value !== 'object') problem = `${file} is not a JSON object`;
      else if (listed !== undefined && !Array.isArray(listed)) problem = `${file} modelServers is ${JSON.stringify(listed)}, not a list of hosts`;
      else
        (listed ?? []).forEach((h: unknown, i: number) => {
          if (typeof h === 'string' && h.trim() !== '') hosts.push(h.trim());
          else problem ??= `${file} modelServers.${i} is ${JSON.stringify(h)}, not a host`;
        });
    } catch (error) {
      problem = `${file} is not valid JSON (${error instanceof Error ? error.message : String(error)})`;
    }
  }
  return problem ? { hosts, problem } : { hosts };
}
