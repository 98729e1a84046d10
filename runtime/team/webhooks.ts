import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Pool } from 'pg';
import type { RuntimeEvent } from '../../shared/events';
import { errorMessage } from '../errors';
import { readTeamEvents, type TeamWebhook } from '../store/postgresRunReads';
import { guardedFetch, RequestRefused, type ResolveAll } from '../tools/guardedFetch';
import type { WebhookPolicy } from './webhookPolicy';

/** The header carrying `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`. */
export const SIGNATURE_HEADER = 'X-Crewdeck-Signature';

/** Signs a webhook body: HMAC-SHA256 over the timestamp, a dot and the exact body. */
export function signWebhook(secret: string, timestamp: number, body: string): string {
  const mac = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  return `t=${timestamp},v1=${mac}`;
}

/**
 * Checks a signature header as a receiver should: the HMAC over the timestamp and the body, compared in
 * constant time, and a timestamp within `toleranceSeconds` of `now` (replays of old deliveries fail).
 */
export function verifyWebhook(secret: string, header: string | undefined, body: string, now = Date.now(), toleranceSeconds = 300): boolean {
  const parts = Object.fromEntries((header ?? '').split(',').map((p) => p.split('=', 2) as [string, string]));
  const t = Number(parts.t);
  if (!Number.isInteger(t) || typeof parts.v1 !== 'string' || Math.abs(now / 1000 - t) > toleranceSeconds) return false;
  const expected = Buffer.from(signWebhook(secret, t, body).split('v1=')[1] ?? '', 'hex');
  const given = Buffer.from(parts.v1, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The server's signing secret: CREWDECK_WEBHOOK_SECRET, else one made at first use and kept in the database. */
export async function webhookSecret(pool: Pool, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  if (env.CREWDECK_WEBHOOK_SECRET) return env.CREWDECK_WEBHOOK_SECRET;
  await pool.query("INSERT INTO server_secrets (name, value) VALUES ('webhook_signing', $1) ON CONFLICT (name) DO NOTHING", [`whsec_${randomBytes(24).toString('hex')}`]);
  return (await pool.query<{ value: string }>("SELECT value FROM server_secrets WHERE name = 'webhook_signing'")).rows[0]!.value;
}

/** Whether the webhook asked for this event type (`events` lists types, or prefixes ending in `*`). */
export function wantsEvent(webhook: TeamWebhook, type: string): boolean {
  if (!webhook.events || webhook.events.length === 0) return true;
  return webhook.events.some((e) => (e.endsWith('*') ? type.startsWith(e.slice(0, -1)) : e === type));
}

/** The body of one delivery: `id` is `<runId>:<seq>`, the same on every retry, for the receiver to drop repeats. */
export function webhookBody(event: RuntimeEvent): string {
  return JSON.stringify({ id: `${event.runId}:${event.seq}`, runId: event.runId, seq: event.seq, type: event.type, event });
}

type DueRun = { id: string; webhook: TeamWebhook; webhook_seq: number; webhook_attempts: number };

export interface WebhookSenderOptions {
  /** Where webhooks may go (webhookPolicy.ts): public addresses, and the hosts the server allows. */
  policy: WebhookPolicy;
  /** Per delivery. Default 10 s. */
  timeoutMs?: number;
  /** How host names are resolved (tests answer without DNS); default the system's. */
  resolve?: ResolveAll;
}

/**
 * Delivers runs' events to their webhooks, at least once and in order per run. A run's sender holds a
 * short lease on it (so one sender at a time), sends its events after the last one delivered, moves the
 * run's cursor after each 2xx, and on a failure waits (1 s doubling, at most 60 s) before trying the
 * same event again. A URL the address policy refuses (it resolves to a private address, or redirects) is
 * not tried again: the run's `webhook_error` says why, and its webhook stops. Every worker runs one; they
 * share the work through the leases.
 */
export class WebhookSender {
  private running = false;
  private again = false;

  constructor(
    private readonly pool: Pool,
    private readonly secret: string,
    private readonly log: (line: string) => void,
    private readonly options: WebhookSenderOptions,
  ) {}

  /** Runs a round now (or right after the one under way). */
  poke(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    this.round()
      .catch((error: unknown) => this.log(`webhooks: ${errorMessage(error)}`))
      .finally(() => {
        this.running = false;
        if (this.again) {
          this.again = false;
          this.poke();
        }
      });
  }

  private async round(): Promise<void> {
    const due = await this.pool.query<DueRun>(
      `UPDATE runs SET webhook_lease_until = now() + interval '60 seconds' WHERE id IN (
         SELECT id FROM runs WHERE webhook IS NOT NULL AND webhook_seq < last_seq
           AND webhook_error IS NULL
           AND (webhook_next_at IS NULL OR webhook_next_at <= now()) AND (webhook_lease_until IS NULL OR webhook_lease_until < now())
         LIMIT 20 FOR UPDATE SKIP LOCKED)
       RETURNING id, webhook, webhook_seq, webhook_attempts`,
    );
    await Promise.all(due.rows.map((run) => this.deliverRun(run)));
  }

  private async deliverRun(run: DueRun): Promise<void> {
    let cursor = run.webhook_seq;
    try {
      for (const event of await readTeamEvents(this.pool, run.id, cursor, 200)) {
        if (wantsEvent(run.webhook, event.type)) await this.post(run.webhook.url, event);
        cursor = event.seq;
        await this.pool.query('UPDATE runs SET webhook_seq = $2, webhook_attempts = 0, webhook_next_at = NULL WHERE id = $1', [run.id, cursor]);
      }
      await this.pool.query('UPDATE runs SET webhook_lease_until = NULL WHERE id = $1', [run.id]);
    } catch (error) {
      if (error instanceof RequestRefused) {
        this.log(`webhook of run ${run.id} stopped: ${error.message}`);
        await this.pool.query('UPDATE runs SET webhook_error = $2, webhook_lease_until = NULL WHERE id = $1', [run.id, error.message]);
        return;
      }
      const attempts = run.webhook_attempts + 1;
      const waitMs = Math.min(1_000 * 2 ** (attempts - 1), 60_000);
      this.log(`webhook of run ${run.id} (event ${cursor + 1}): ${errorMessage(error)}; try ${attempts + 1} in ${waitMs} ms`);
      await this.pool.query(
        'UPDATE runs SET webhook_attempts = $2, webhook_next_at = now() + make_interval(secs => $3::double precision / 1000), webhook_lease_until = NULL WHERE id = $1',
        [run.id, attempts, waitMs],
      );
    }
  }

  private async post(url: string, event: RuntimeEvent): Promise<void> {
    const body = webhookBody(event);
    const headers = new Headers({ 'content-type': 'application/json', [SIGNATURE_HEADER]: signWebhook(this.secret, Math.floor(Date.now() / 1000), body), 'X-Crewdeck-Event': event.type, 'X-Crewdeck-Delivery': `${event.runId}:${event.seq}` });
    // Every address checked (webhookPolicy.ts), the connection pinned to the checked ones; a redirect is refused.
    const response = await guardedFetch(new URL(url), {
      method: 'POST',
      headers,
      body,
      signal: AbortSignal.timeout(this.options.timeoutMs ?? 10_000),
      trustedHosts: this.options.policy.allowedHosts,
      maxRedirects: 0,
      ...(this.options.resolve ? { resolve: this.options.resolve } : {}),
    });
    await response.arrayBuffer().catch(() => undefined);
    if (response.status < 200 || response.status >= 300) throw new Error(`the receiver answered HTTP ${response.status}`);
  }
}
