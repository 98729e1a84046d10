import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Pool } from 'pg';

/** What a key may do: `run` reads and runs, `deploy` also publishes, `admin` everything. */
export type KeyScope = 'run' | 'deploy' | 'admin';
export const KEY_SCOPES: readonly KeyScope[] = ['run', 'deploy', 'admin'];
const RANK: Record<KeyScope, number> = { run: 1, deploy: 2, admin: 3 };

export interface ApiKey {
  id: string;
  name: string;
  scopes: KeyScope[];
  ratePerMinute: number;
  createdAt: number;
  revokedAt?: number;
}

export const DEFAULT_RATE_PER_MINUTE = 600;

const hashOf = (secret: string) => createHash('sha256').update(secret).digest('hex');

/**
 * Makes a key `cdk_<id>_<secret>`; only the secret's SHA-256 is stored (the secret is 32 random bytes, so
 * a fast hash is enough: there is nothing to guess). The whole key is returned once, here.
 */
export async function createApiKey(pool: Pool, options: { scope: KeyScope; name?: string; ratePerMinute?: number }): Promise<{ key: string; apiKey: ApiKey }> {
  const id = randomBytes(6).toString('hex');
  const secret = randomBytes(32).toString('base64url');
  const apiKey: ApiKey = { id, name: options.name ?? `${options.scope} key`, scopes: [options.scope], ratePerMinute: options.ratePerMinute ?? DEFAULT_RATE_PER_MINUTE, createdAt: Date.now() };
  await pool.query('INSERT INTO api_keys (id, name, hash, scopes, rate_per_minute, created_at) VALUES ($1, $2, $3, $4, $5, $6)', [id, apiKey.name, hashOf(secret), apiKey.scopes, apiKey.ratePerMinute, apiKey.createdAt]);
  return { key: `cdk_${id}_${secret}`, apiKey };
}

type KeyRow = { id: string; name: string; hash: string; scopes: KeyScope[]; rate_per_minute: number; created_at: number; revoked_at: number | null };

function toKey(row: KeyRow): ApiKey {
  return { id: row.id, name: row.name, scopes: row.scopes, ratePerMinute: row.rate_per_minute, createdAt: row.created_at, ...(row.revoked_at !== null ? { revokedAt: row.revoked_at } : {}) };
}

/** The key a bearer token names, if it exists, is not revoked and its secret matches (compared in constant time). */
export async function verifyApiKey(pool: Pool, token: string): Promise<ApiKey | undefined> {
  const match = /^cdk_([0-9a-f]{12})_([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return undefined;
  const row = (await pool.query<KeyRow>('SELECT * FROM api_keys WHERE id = $1 AND revoked_at IS NULL', [match[1]])).rows[0];
  if (!row) return undefined;
  const given = Buffer.from(hashOf(match[2]!), 'hex');
  const stored = Buffer.from(row.hash, 'hex');
  return given.length === stored.length && timingSafeEqual(given, stored) ? toKey(row) : undefined;
}

export function hasScope(key: ApiKey, needed: KeyScope): boolean {
  return key.scopes.some((s) => RANK[s] >= RANK[needed]);
}

export async function listApiKeys(pool: Pool): Promise<ApiKey[]> {
  return (await pool.query<KeyRow>('SELECT * FROM api_keys ORDER BY created_at')).rows.map(toKey);
}

export async function revokeApiKey(pool: Pool, id: string): Promise<boolean> {
  const result = await pool.query('UPDATE api_keys SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL', [id, Date.now()]);
  return (result.rowCount ?? 0) > 0;
}
