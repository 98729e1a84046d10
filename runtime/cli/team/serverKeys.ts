import { parseOptions } from '../options';
import { UsageError } from '../usage';
import { CONNECTION_OPTIONS, databaseUrl, intOption } from './teamOptions';
import { reportRefusal } from './teamRefusal';

/** `crewdeck server keys create --scope run|deploy|admin [--name N] [--rate-limit N] | list | revoke <id>`, with --database. */
export async function serverKeysCommand(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  if (!['create', 'list', 'revoke'].includes(sub ?? '')) throw new UsageError(sub === undefined ? 'server keys needs a subcommand: create, list or revoke' : `unknown subcommand "server keys ${sub}"; use create, list or revoke`);
  const { values, positionals } = parseOptions(rest, {
    database: CONNECTION_OPTIONS.database,
    scope: { type: 'string' },
    name: { type: 'string' },
    'rate-limit': { type: 'string' },
    json: { type: 'boolean', default: false },
  });
  const json = values.json ?? false;
  const keys = await import('../../team/apiKeys');
  if (sub === 'create' && !keys.KEY_SCOPES.includes(values.scope as never)) throw new UsageError(`keys create needs --scope run, deploy or admin${values.scope ? `, got "${values.scope}"` : ''}`);
  if (sub === 'revoke' && positionals.length !== 1) throw new UsageError('keys revoke needs exactly one key id (see crewdeck server keys list)');
  const rate = intOption(values['rate-limit'], 'rate-limit', 1, 1_000_000);
  const { openPostgres } = await import('../../team/connections');
  const { requirePostgresSchema } = await import('../../store/postgresSchema');
  let pool;
  try {
    pool = await openPostgres(databaseUrl(values), { max: 1 });
    await requirePostgresSchema(pool);
    if (sub === 'create') {
      const { key, apiKey } = await keys.createApiKey(pool, { scope: values.scope as 'run', ...(values.name ? { name: values.name } : {}), ...(rate ? { ratePerMinute: rate } : {}) });
      process.stdout.write(json ? `${JSON.stringify({ key, id: apiKey.id, scopes: apiKey.scopes, ratePerMinute: apiKey.ratePerMinute })}\n` : `${key}\n\nThis is the only time the key is shown (the server keeps its hash). Scope: ${apiKey.scopes.join(', ')}; id ${apiKey.id}.\n`);
    } else if (sub === 'list') {
      const list = await keys.listApiKeys(pool);
      if (json) process.stdout.write(`${JSON.stringify(list)}\n`);
      else for (const k of list) process.stdout.write(`${k.id}  ${k.scopes.join(',').padEnd(7)} ${String(k.ratePerMinute).padStart(6)}/min  ${k.revokedAt ? 'revoked' : 'active '}  ${k.name}\n`);
    } else {
      const revoked = await keys.revokeApiKey(pool, positionals[0]!);
      if (!revoked) throw new UsageError(`no active key with id "${positionals[0]!}"`);
      process.stdout.write(json ? `${JSON.stringify({ id: positionals[0], status: 'revoked' })}\n` : `Revoked key ${positionals[0]!}.\n`);
    }
    return 0;
  } catch (error) {
    if (error instanceof UsageError) throw error;
    return reportRefusal(error, json);
  } finally {
    await pool?.end();
  }
}
