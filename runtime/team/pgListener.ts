import pg from 'pg';

/**
 * A dedicated connection that LISTENs on some channels and calls `onNotify` for each notification. When
 * PostgreSQL goes away (a restart) it reconnects by itself, with backoff, and calls `onReconnect` (what
 * was notified meanwhile is lost: callers then read what they may have missed).
 */
export class PgListener {
  private client: pg.Client | undefined;
  private closed = false;
  private retry: NodeJS.Timeout | undefined;
  private attempts = 0;

  constructor(
    private readonly url: string,
    private readonly channels: readonly string[],
    private readonly onNotify: (channel: string, payload: string) => void,
    private readonly onReconnect: () => void = () => undefined,
  ) {}

  async start(): Promise<void> {
    await this.connect();
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url, connectionTimeoutMillis: 5_000, application_name: 'crewdeck-listen' });
    client.on('notification', (message) => this.onNotify(message.channel, message.payload ?? ''));
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    await client.connect();
    for (const channel of this.channels) await client.query(`LISTEN ${channel}`);
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.attempts = 0;
  }

  private lost(client: pg.Client): void {
    if (this.client !== client || this.closed) return;
    this.client = undefined;
    client.end().catch(() => undefined);
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.closed || this.retry) return;
    const delay = Math.min(100 * 2 ** this.attempts++, 2_000);
    this.retry = setTimeout(() => {
      this.retry = undefined;
      this.connect().then(
        () => this.onReconnect(),
        () => this.scheduleReconnect(),
      );
    }, delay);
    this.retry.unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    await this.client?.end().catch(() => undefined);
    this.client = undefined;
  }
}
