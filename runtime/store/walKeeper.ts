import Database from 'better-sqlite3';

/**
 * How many database files keep a read-only connection open after their store closed (most recent
 * first). Closing one that falls off costs nothing: a read-only connection never checkpoints.
 */
const MAX_KEPT = 8;

const kept = new Map<string, Database.Database>();

/**
 * Closes `db` without copying its write-ahead log into the database file. SQLite's last connection to a
 * file checkpoints on close (copies the WAL, syncs the WAL and the database file, deletes the WAL): two
 * fsyncs and a full copy per run, about as much as all of a 200-task run's commits. A read-only
 * connection kept open here holds the file's shared lock, so the closing one leaves the log as it is.
 * Nothing committed is at risk: the log is the database's own journal, read by every later connection
 * (another process recovers it), and the next writer checkpoints it once it reaches `wal_autocheckpoint`
 * pages — 2 fsyncs per 16 MiB of log instead of per run. In-memory databases simply close.
 */
export function closeKeepingWal(db: Database.Database): void {
  const file = db.name;
  if (!db.memory && db.open && !kept.has(file)) {
    try {
      const keeper = new Database(file, { readonly: true, fileMustExist: true });
      // The first read attaches the connection to the WAL and takes its shared lock.
      keeper.pragma('schema_version', { simple: true });
      kept.set(file, keeper);
      if (kept.size > MAX_KEPT) {
        const [oldest, connection] = kept.entries().next().value as [string, Database.Database];
        kept.delete(oldest);
        connection.close();
      }
    } catch {
      // No keeper (the file is gone, no read access): the close below checkpoints as SQLite always did.
    }
  } else if (kept.has(file)) {
    // Most recently used last: the one evicted is the file longest unused.
    const keeper = kept.get(file)!;
    kept.delete(file);
    kept.set(file, keeper);
  }
  db.close();
}
