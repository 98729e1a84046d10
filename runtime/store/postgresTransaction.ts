import type { Pool, PoolClient } from 'pg';
import { isTransactionCollision } from './postgresErrors';

/** How often a transaction that collided with another is sent again before its error is let through. */
const COLLISION_ATTEMPTS = 5;

/**
 * Runs `body` in one transaction on a connection of its own: committed when it returns, rolled back when
 * it throws. A transaction PostgreSQL rolled back for colliding with another (a deadlock between the API's
 * cancel and a worker's commit on the same runs, say) runs again from the start, after a short random
 * pause so the two do not meet again; `body` must therefore only act through `client` (nothing outside
 * the transaction that would be done twice).
 */
export async function inTransaction<T>(pool: Pool, body: (client: PoolClient) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const result = await body(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      if (!isTransactionCollision(error) || attempt >= COLLISION_ATTEMPTS) throw error;
    } finally {
      client.release();
    }
    await new Promise((resolve) => setTimeout(resolve, 10 + Math.random() * 40 * attempt));
  }
}
