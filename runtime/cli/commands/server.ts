import { parseOptions } from '../options';
import { UsageError } from '../usage';
import { CONNECTION_OPTIONS, databaseUrl, intOption, redisUrl, secondsOption, untilStopped } from '../team/teamOptions';
import { reportRefusal } from '../team/teamRefusal';
import { webhookPolicyFrom } from '../../team/webhookPolicy';
import { serverKeysCommand } from '../team/serverKeys';

/**
 * `crewdeck server --database … --redis … [--port N] [--host H] [--with-worker]`: the team server's API;
 * `crewdeck server migrate` brings the database's schema up to date; `crewdeck server keys …` manages API
 * keys; `crewdeck server webhook-secret` prints the secret webhooks are signed with.
 */
export async function serverCommand(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === 'migrate') return migrate(rest);
  if (sub === 'keys') return serverKeysCommand(rest);
  if (sub === 'webhook-secret') return webhookSecretCommand(rest);
  if (sub !== undefined && !sub.startsWith('-')) throw new UsageError(`unknown subcommand "server ${sub}"; use migrate, keys or webhook-secret (or no subcommand to start the server)`);
  const { values } = parseOptions(args, {
    ...CONNECTION_OPTIONS,
    port: { type: 'string' },
    host: { type: 'string' },
    'with-worker': { type: 'boolean', default: false },
    concurrency: { type: 'string' },
    'lease-seconds': { type: 'string' },
    memory: { type: 'string' },
    data: { type: 'string' },
    'queue-prefix': { type: 'string' },
    'webhook-allow': { type: 'string', multiple: true },
    json: { type: 'boolean', default: false },
  });
  const options = {
    databaseUrl: databaseUrl(values),
    redisUrl: redisUrl(values),
    port: intOption(values.port, 'port', 0, 65535) ?? 8787,
    host: values.host ?? '127.0.0.1',
    ...(values['queue-prefix'] ? { queuePrefix: values['queue-prefix'] } : {}),
    webhookPolicy: webhookPolicyFrom(values['webhook-allow']),
    ...(values['with-worker']
      ? {
          withWorker: {
            concurrency: intOption(values.concurrency, 'concurrency', 1, 256) ?? 2,
            leaseMs: secondsOption(values['lease-seconds'], 'lease-seconds', 1, 600),
            ...(values.memory ? { memoryDir: values.memory } : {}),
            ...(values.data ? { dataDir: values.data } : {}),
          },
        }
      : {}),
  };
  const { startTeamServer } = await import('../../team/teamServer');
  let server;
  try {
    server = await startTeamServer(options);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      process.stderr.write(`error: port ${options.port} is in use; pick another with --port N (0 picks a free one)\n`);
      return 2;
    }
    return reportRefusal(error, values.json ?? false);
  }
  if (values.json) process.stdout.write(`${JSON.stringify({ status: 'ready', url: server.url, pid: process.pid })}\n`);
  else process.stdout.write(`Crewdeck team server on ${server.url} (API under ${server.url}/v1). Ctrl-C stops it.\n`);
  await untilStopped(() => server.stop());
  return 0;
}

async function migrate(args: string[]): Promise<number> {
  const { values } = parseOptions(args, { database: CONNECTION_OPTIONS.database, json: { type: 'boolean', default: false } });
  const { openPostgres } = await import('../../team/connections');
  const { migratePostgres, POSTGRES_SCHEMA_VERSION } = await import('../../store/postgresSchema');
  let pool;
  try {
    pool = await openPostgres(databaseUrl(values), { max: 1 });
    const applied = await migratePostgres(pool);
    if (values.json) process.stdout.write(`${JSON.stringify({ status: 'migrated', applied, version: POSTGRES_SCHEMA_VERSION })}\n`);
    else process.stdout.write(applied.length ? `Migrated the team database to schema version ${POSTGRES_SCHEMA_VERSION} (applied ${applied.join(', ')}).\n` : `The team database is at schema version ${POSTGRES_SCHEMA_VERSION} already.\n`);
    return 0;
  } catch (error) {
    return reportRefusal(error, values.json ?? false);
  } finally {
    await pool?.end();
  }
}

async function webhookSecretCommand(args: string[]): Promise<number> {
  const { values } = parseOptions(args, { database: CONNECTION_OPTIONS.database, json: { type: 'boolean', default: false } });
  const { openPostgres } = await import('../../team/connections');
  const { webhookSecret } = await import('../../team/webhooks');
  let pool;
  try {
    pool = await openPostgres(databaseUrl(values), { max: 1 });
    const secret = await webhookSecret(pool);
    process.stdout.write(values.json ? `${JSON.stringify({ secret })}\n` : `${secret}\n`);
    return 0;
  } catch (error) {
    return reportRefusal(error, values.json ?? false);
  } finally {
    await pool?.end();
  }
}
