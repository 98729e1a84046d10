import { PROVIDER_PRESETS } from './providerPresets';

/**
 * The environment variables that hold the keys the app uses: the model providers' (presets), the web
 * search providers' (the `web_search` tool), and any name shaped like a key (`…_API_KEY`, `…_KEY`,
 * `…_TOKEN`, `…_SECRET`, `…_PASSWORD`), which is what a model profile's `apiKeyEnv` or an MCP `${VAR}`
 * names in practice. An allowlist, not a denylist: a variable that changes how processes load code or
 * where requests go (`BASH_ENV`, `PYTHONPATH`, `GIT_SSH_COMMAND`, `NODE_OPTIONS`, `HTTPS_PROXY`…) has no
 * such shape, so the app's Settings can never set one (`secrets.set`).
 */
export const APP_SECRET_ENV_NAMES: readonly string[] = [
  ...new Set([
    ...PROVIDER_PRESETS.map((p) => p.apiKeyEnv).filter((name) => name !== ''),
    'OPENAI_API_KEY',
    'SERPER_API_KEY',
    'TAVILY_API_KEY',
    'BRAVE_API_KEY',
    'BRAVE_SEARCH_API_KEY',
    'EXA_API_KEY',
  ]),
];

const KEY_SHAPED = /^[A-Z][A-Z0-9_]*_(API_KEY|KEY|TOKEN|SECRET|PASSWORD)$/;

/** Whether the app may hold a key under this name (`APP_SECRET_ENV_NAMES`, or a key-shaped upper-case name). */
export function isSecretEnvName(name: string): boolean {
  return APP_SECRET_ENV_NAMES.includes(name) || KEY_SHAPED.test(name);
}

export const SECRET_ENV_NAME_RULE =
  'is not a key name the app uses: name it like OPENAI_API_KEY (upper case, ending in _API_KEY, _KEY, _TOKEN, _SECRET or _PASSWORD), or set the variable in your shell';
