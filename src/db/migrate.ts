import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { packagePath } from "../util/package-root.js";
import type { Db, Queryable } from "./db.js";

const MIGRATIONS_DIR = packagePath("src/db/migrations");

export type MigrationResult = { applied: string[]; total: number };

/**
 * What a chain schema of a multichain deployment runs of a migration: the statements after `-- scope: chain` (the
 * default at the top of a file), not those after `-- scope: shared` (the verified store, jobs, rate limits: tables
 * every chain reaches in `public`). The `public` schema runs whole files, as it always did, so its records stay valid.
 */
export function chainPart(sql: string): string {
  let shared = false;
  const kept: string[] = [];
  for (const line of sql.split("\n")) {
    const marker = /^--\s*scope:\s*(shared|chain)\s*$/.exec(line.trim());
    if (marker) shared = marker[1] === "shared";
    else if (!shared) kept.push(line);
  }
  return kept.join("\n");
}

/** Where migrations go: `public` (the first chain and the shared tables), or a further chain's own schema. */
export type MigrationTarget = { schema?: string };

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
export async function pendingMigrations(
  db: Queryable,
  dir = MIGRATIONS_DIR,
  target: MigrationTarget = {},
): Promise<string[]> {
  // A chain schema's records are its own: not `public`'s, which the search path would find when it has none.
  const [t] = await db.query<{ present: boolean }>("select to_regclass($1) is not null as present", [
    target.schema ? `${target.schema}.schema_migrations` : "schema_migrations",
  ]);
  const files = migrationFiles(dir);
  if (!t?.present) return files;
  const done = new Set(
    (await db.query<{ name: string }>("select name from schema_migrations")).map((r) => r.name),
  );
  return files.filter((f) => !done.has(f));
}

export async function migrate(
  db: Db,
  dir = MIGRATIONS_DIR,
  target: MigrationTarget = {},
): Promise<MigrationResult> {
  const files = migrationFiles(dir);
  const applied: string[] = [];
  // Each step holds a transaction-level advisory lock (PostgreSQL): several processes starting at once migrate one
  // after the other, and a lock taken on a pooled connection cannot outlive its transaction on another one.
  const lock = async (tx: Queryable) => {
    if (db.kind === "postgres") await tx.query("select pg_advisory_xact_lock(7163)");
  };
  await db.transaction(async (tx) => {
    await lock(tx);
    // `db` is the chain's handle (search path: its schema, then public): what it creates goes into its schema.
    if (target.schema) await tx.exec(`create schema if not exists ${target.schema}`);
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
      await tx.exec(target.schema ? chainPart(sql) : sql);
      await tx.query("insert into schema_migrations (name) values ($1)", [file]);
      return true;
    });
    if (ran) applied.push(file);
  }
  return { applied, total: files.length };
}
