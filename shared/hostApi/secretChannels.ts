import { z } from 'zod';
import { isSecretEnvName, SECRET_ENV_NAME_RULE } from '../model/secretEnvNames';
import { empty, type ChannelSchemas } from './requestFields';

/**
 * Names of API-key variables the app may store and hand to the runtime's environment: an allowlist
 * (`isSecretEnvName`), so variables that change how processes load code or where requests go
 * (`BASH_ENV`, `PYTHONPATH`, `GIT_SSH_COMMAND`…) are refused.
 */
const EnvName = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]{0,100}$/, 'must be an environment variable name')
  .refine(isSecretEnvName, SECRET_ENV_NAME_RULE);

export const API_KEY_CHANNELS = {
  /**
   * API keys. Values go in and never come back out. The desktop app keeps them in the OS keychain
   * (Electron safeStorage); browser mode and the CLI read environment variables and cannot store keys.
   */
  'secrets.list': {
    request: empty,
    response: z.object({
      writable: z.boolean(),
      names: z.array(z.object({ name: z.string(), present: z.boolean(), stored: z.boolean() })),
    }),
  },
  'secrets.set': {
    request: z.strictObject({ name: EnvName, value: z.string().min(1).max(10_000) }),
    response: empty,
  },
  'secrets.delete': { request: z.strictObject({ name: EnvName }), response: empty },
} as const satisfies ChannelSchemas;
