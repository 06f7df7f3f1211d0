import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Config } from "../../config/config.js";
import { checkWritable, type Writability } from "../../db/access.js";
import type { Db } from "../../db/db.js";
import { migrate, migrationFiles, pendingMigrations } from "../../db/migrate.js";
import { cappedStatementTimeout, DatabaseError, openDb, redact } from "../../db/open.js";
import type { Logger } from "../../util/logger.js";

export type Databases = {
  /** DATABASE_URL: writes, job claims, the indexer. */
  db: Db;
  /** READ_DATABASE_URL when set (a replica or a read-only role), else `db`: explorer reads. */
  readDb: Db;
  writability: Writability;
  close(): Promise<void>;
};

/**
 * Opens the database(s) of a role. Roles that own the schema migrate it; the others (`serve`, `work`) only check
 * it, creating nothing, and stop with a message about migrations when it is missing or behind.
 */
export async function openDatabases(
  config: Config,
  o: {
    migrate: boolean;
    logger: Logger;
    /**
     * The role serves the API: its reads get a pool of their own on PostgreSQL, with API_STATEMENT_TIMEOUT_MS
     * (no page of the API legitimately runs that long; a statement that does answers 503, and the indexer's and
     * jobs' statements on DATABASE_URL are not cut).
     */
    apiReads?: boolean;
  },
): Promise<Databases> {
  if (!config.databaseUrl) {
    const dir = join(config.dataDir, "pglite");
    // The first start creates the embedded database (seconds on a busy machine): say so, not a silent pause.
    if (!existsSync(dir)) o.logger.info({ dir }, "Creating the embedded database (first start only)");
    mkdirSync(config.dataDir, { recursive: true });
  }
  const db = await openDb(config);
  let readDb: Db | null = null;
  const close = async () => {
    await readDb?.close();
    await db.close();
  };
  try {
    if (o.migrate) {
      const m = await migrate(db);
      if (m.applied.length) o.logger.info({ applied: m.applied }, "Applied database migrations");
    } else {
      const pending = await pendingMigrations(db);
      if (pending.length)
        throw new DatabaseError({
          code: "schema_behind",
          shortMessage: `The database schema is ${pending.length === migrationFiles().length ? "missing" : "behind"}: ${pending.length} migration(s) not applied (${pending.slice(0, 3).join(", ")}${pending.length > 3 ? ", …" : ""}). Run \`lookout migrate\` against it first, or start this process with --migrate.`,
        });
    }
    const writability = await checkWritable(db);
    const readUrl = config.readDatabaseUrl ?? config.databaseUrl;
    const apiTimeout =
      o.apiReads && config.databaseUrl
        ? cappedStatementTimeout(config.apiStatementTimeoutMs, config.dbStatementTimeoutMs)
        : 0;
    // A pool of the API's own when it reads elsewhere or with another timeout than every other statement's.
    const ownTimeout = apiTimeout > 0 && apiTimeout !== config.dbStatementTimeoutMs;
    if (readUrl && (readUrl !== config.databaseUrl || ownTimeout)) {
      const timeout = apiTimeout > 0 ? { dbStatementTimeoutMs: apiTimeout } : {};
      readDb = await openDb({ ...config, databaseUrl: readUrl, ...timeout }).catch((cause) => {
        throw new DatabaseError({
          code: "database_unavailable",
          shortMessage: `Cannot connect to the read database at ${config.readDatabaseUrl ? "READ_DATABASE_URL" : "DATABASE_URL"} (${redact(readUrl)}).`,
          cause,
        });
      });
    }
    return { db, readDb: readDb ?? db, writability, close };
  } catch (e) {
    await close().catch(() => {});
    throw e;
  }
}
