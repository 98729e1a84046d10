import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { inTransaction } from '../../runtime/store/postgresTransaction';
import { sharedServices, teamTestEnv, type TeamTestEnv } from '../support/teamServices';

/**
 * The team server's transactions (a batch cancelled while its runs' workers commit, say) can deadlock
 * in PostgreSQL; the one PostgreSQL rolls back is sent again rather than failing the request.
 */
let env: TeamTestEnv;
let pool: pg.Pool;

beforeAll(async () => {
  env = await teamTestEnv();
  pool = new pg.Pool({ connectionString: env.databaseUrl, max: 4 });
  await pool.query('CREATE TABLE pair (id int PRIMARY KEY, n int NOT NULL)');
}, 60_000);

afterAll(async () => {
  await pool?.end();
  await env?.dispose();
  await (await sharedServices()).stop();
}, 60_000);

async function counts(): Promise<number[]> {
  return (await pool.query<{ n: number }>('SELECT n FROM pair ORDER BY id')).rows.map((r) => r.n);
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('inTransaction', () => {
  it('two transactions that lock two rows in opposite orders both commit, the deadlock victim once more', async () => {
    await pool.query('TRUNCATE pair; INSERT INTO pair VALUES (1, 0), (2, 0)');
    const holding = [deferred(), deferred()];
    let attempts = 0;
    const cross = (first: number, second: number, me: 0 | 1) =>
      inTransaction(pool, async (client) => {
        attempts++;
        await client.query('UPDATE pair SET n = n + 1 WHERE id = $1', [first]);
        holding[me]!.resolve();
        await Promise.all(holding.map((h) => h.promise)); // each holds its first row: the second updates cross
        await client.query('UPDATE pair SET n = n + 1 WHERE id = $1', [second]);
      });
    await Promise.all([cross(1, 2, 0), cross(2, 1, 1)]);
    expect(await counts()).toEqual([2, 2]);
    expect(attempts).toBe(3);
  }, 30_000);

  it('any other error rolls back and is thrown at once; a collision that keeps coming is thrown after five tries', async () => {
    await pool.query('TRUNCATE pair; INSERT INTO pair VALUES (1, 0), (2, 0)');
    let attempts = 0;
    await expect(
      inTransaction(pool, async (client) => {
        attempts++;
        await client.query('UPDATE pair SET n = 5 WHERE id = 1');
        await client.query('SELECT * FROM no_such_table');
      }),
    ).rejects.toMatchObject({ code: '42P01' });
    expect(attempts).toBe(1);
    expect(await counts()).toEqual([0, 0]);

    attempts = 0;
    await expect(
      inTransaction(pool, async (client) => {
        attempts++;
        await client.query('UPDATE pair SET n = n + 1 WHERE id = 2');
        throw Object.assign(new Error('could not serialize access'), { code: '40001' });
      }),
    ).rejects.toMatchObject({ code: '40001' });
    expect(attempts).toBe(5);
    expect(await counts()).toEqual([0, 0]);
  }, 30_000);
});
