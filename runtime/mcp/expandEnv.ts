import { registerSecret } from '../redactSecrets';
import { McpConfigInvalid } from './mcpErrors';

const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/**
 * Expands `${NAME}` references in a settings value from the environment. Returns the value and the
 * values that came from the environment (treated as secrets: they are cut out of any message, and
 * registered so events, stored rows and CLI output are cleaned of them too).
 */
export function expandEnv(value: string, env: NodeJS.ProcessEnv, where: string): { value: string; secrets: string[] } {
  const secrets: string[] = [];
  const expanded = value.replace(REFERENCE, (_match, name: string) => {
    const found = env[name];
    if (found === undefined || found === '') {
      throw new McpConfigInvalid(`${where} uses the environment variable ${name}, which is not set`);
    }
    secrets.push(found);
    registerSecret(found);
    return found;
  });
  return { value: expanded, secrets };
}

/** Expands every value of a record; secrets are collected into `secrets`. */
export function expandEnvRecord(
  record: Record<string, string> | undefined,
  env: NodeJS.ProcessEnv,
  where: string,
  secrets: string[],
): Record<string, string> | undefined {
  if (!record) return undefined;
  const out: Record<string, string> = {};
  for (const [key, raw] of Object.entries(record)) {
    const { value, secrets: found } = expandEnv(raw, env, `${where}.${key}`);
    out[key] = value;
    secrets.push(...found);
  }
  return out;
}
