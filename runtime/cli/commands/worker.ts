import { parseOptions } from '../options';
import { UsageError } from '../usage';
import { CONNECTION_OPTIONS, databaseUrl, intOption, redisUrl, secondsOption, untilStopped } from '../team/teamOptions';
import { reportRefusal } from '../team/teamRefusal';
import { webhookPolicyFrom } from '../../team/webhookPolicy';

/** `crewdeck worker --database … --redis … [--concurrency N] [--lease-seconds S] [--memory DIR] [--data DIR]`. */
export async function workerCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseOptions(args, {
    ...CONNECTION_OPTIONS,
    concurrency: { type: 'string' },
    'lease-seconds': { type: 'string' },
    memory: { type: 'string' },
    data: { type: 'string' },
    'queue-prefix': { type: 'string' },
    'webhook-allow': { type: 'string', multiple: true },
    json: { type: 'boolean', default: false },
  });
  if (positionals.length > 0) throw new UsageError(`worker takes no arguments, got "${positionals.join(' ')}"`);
  const options = {
    databaseUrl: databaseUrl(values),
    redisUrl: redisUrl(values),
    concurrency: intOption(values.concurrency, 'concurrency', 1, 256) ?? 2,
    leaseMs: secondsOption(values['lease-seconds'], 'lease-seconds', 1, 600),
    ...(values.memory ? { memoryDir: values.memory } : {}),
    ...(values.data ? { dataDir: values.data } : {}),
    ...(values['queue-prefix'] ? { queuePrefix: values['queue-prefix'] } : {}),
    webhookPolicy: webhookPolicyFrom(values['webhook-allow']),
  };
  const { startWorker } = await import('../../team/teamWorker');
  let worker;
  try {
    worker = await startWorker(options);
  } catch (error) {
    return reportRefusal(error, values.json ?? false);
  }
  if (values.json) process.stdout.write(`${JSON.stringify({ status: 'ready', worker: worker.owner, pid: process.pid })}\n`);
  await untilStopped(() => worker.stop());
  return 0;
}
