import { join } from "node:path";
import { LookoutError } from "../errors/base.js";
import type { Db } from "./db.js";
import { createPostgresDb } from "./pg.js";
import { createPgliteDb } from "./pglite.js";

export class DatabaseError extends LookoutError {
  override name = "DatabaseError";
}

/** PostgreSQL when a URL is given, embedded PGlite under `<dataDir>/pglite` otherwise. */
export async function openDb(opts: {
  databaseUrl?: string | undefined;
  dataDir: string;
  dbPoolSize?: number;
  dbStatementTimeoutMs?: number;
}): Promise<Db> {
  try {
    return opts.databaseUrl
      ? await createPostgresDb(opts.databaseUrl, {
          ...(opts.dbPoolSize ? { max: opts.dbPoolSize } : {}),
          ...(opts.dbStatementTimeoutMs ? { statementTimeoutMs: opts.dbStatementTimeoutMs } : {}),
        })
      : await createPgliteDb(join(opts.dataDir, "pglite"));
  } catch (cause) {
    throw new DatabaseError({
      code: "database_unavailable",
      shortMessage: opts.databaseUrl
        ? `Cannot connect to the database at DATABASE_URL (${redact(opts.databaseUrl)}).`
        : `Cannot open the embedded database under DATA_DIR (${opts.dataDir}).`,
      cause,
    });
  }
}

/**
 * A pool's own statement_timeout (the API's, GraphQL's) under DB_STATEMENT_TIMEOUT_MS (`every`), which bounds every
 * connection: never longer than it when it is set; an own timeout of 0 takes it.
 */
export function cappedStatementTimeout(own: number, every: number): number {
  if (own > 0 && every > 0) return Math.min(own, every);
  return own > 0 ? own : every;
}

export function redact(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "<malformed>";
  }
}
