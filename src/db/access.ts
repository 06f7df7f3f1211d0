import type { Queryable } from "./db.js";

export type Writability = { writable: true; reason: null } | { writable: false; reason: string };

/**
 * Whether this connection can write what the processes write (a standby server in recovery, a session that is
 * read-only by default, or a role without INSERT/UPDATE on the tables cannot). Asked once at start.
 */
export async function checkWritable(db: Queryable): Promise<Writability> {
  const [r] = await db.query<{ recovery: boolean; read_only: boolean; jobs: boolean; index: boolean }>(
    `select pg_is_in_recovery() as recovery,
            current_setting('transaction_read_only') = 'on' as read_only,
            has_table_privilege('verification_jobs', 'INSERT, UPDATE') as jobs,
            has_table_privilege('indexer_state', 'INSERT, UPDATE') as index`,
  );
  if (r?.recovery)
    return { writable: false, reason: "the database server is a read-only standby (in recovery)" };
  if (r?.read_only)
    return { writable: false, reason: "the database session is read-only (default_transaction_read_only)" };
  if (!r?.jobs || !r.index)
    return {
      writable: false,
      reason: `the database role ${await currentUser(db)} lacks INSERT/UPDATE permission on Lookout's tables`,
    };
  return { writable: true, reason: null };
}

async function currentUser(db: Queryable): Promise<string> {
  const [u] = await db.query<{ u: string }>("select current_user as u");
  return JSON.stringify(u?.u ?? "?");
}
