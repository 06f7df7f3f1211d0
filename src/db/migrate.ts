import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { packagePath } from "../util/package-root.js";
import type { Db, Queryable } from "./db.js";

const MIGRATIONS_DIR = packagePath("src/db/migrations");

export type MigrationResult = { applied: string[]; total: number };

/**
 * Applies the plain SQL files of src/db/migrations in name order, each once, each in its own transaction.
 * Both drivers run the same files. On PostgreSQL an advisory lock keeps two processes from migrating at once.
 */
/** The migration files, in the order they apply. */
export function migrationFiles(dir = MIGRATIONS_DIR): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith(".sql"))
    .sort();
}

/**
 * The migrations this database lacks, read without creating anything (for the roles that must not migrate).
 * Every file is missing when `schema_migrations` does not exist.
 */
export async function pendingMigrations(db: Queryable, dir = MIGRATIONS_DIR): Promise<string[]> {
  const [t] = await db.query<{ present: boolean }>(
    "select to_regclass('schema_migrations') is not null as present",
  );
  const files = migrationFiles(dir);
  if (!t?.present) return files;
  const done = new Set(
    (await db.query<{ name: string }>("select name from schema_migrations")).map((r) => r.name),
  );
  return files.filter((f) => !done.has(f));
}

export async function migrate(db: Db, dir = MIGRATIONS_DIR): Promise<MigrationResult> {
  const files = migrationFiles(dir);
  const applied: string[] = [];
  // Each step holds a transaction-level advisory lock (PostgreSQL): several processes starting at once migrate one
  // after the other, and a lock taken on a pooled connection cannot outlive its transaction on another one.
  const lock = async (tx: Queryable) => {
    if (db.kind === "postgres") await tx.query("select pg_advisory_xact_lock(7163)");
  };
  await db.transaction(async (tx) => {
    await lock(tx);
    await tx.exec(
      "create table if not exists schema_migrations (name text primary key, applied_at timestamptz not null default now())",
    );
  });
  const done = new Set(
    (await db.query<{ name: string }>("select name from schema_migrations")).map((r) => r.name),
  );
  for (const file of files) {
    if (done.has(file)) continue;
    const sql = readFileSync(join(dir, file), "utf8");
    const ran = await db.transaction(async (tx) => {
      await lock(tx);
      // Another process may have applied it while we waited for the lock.
      if ((await tx.query("select 1 from schema_migrations where name = $1", [file])).length) return false;
      await tx.exec(sql);
      await tx.query("insert into schema_migrations (name) values ($1)", [file]);
      return true;
    });
    if (ran) applied.push(file);
  }
  return { applied, total: files.length };
}
