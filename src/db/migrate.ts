import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { packagePath } from "../util/package-root.js";
import type { Db } from "./db.js";

const MIGRATIONS_DIR = packagePath("src/db/migrations");

export type MigrationResult = { applied: string[]; total: number };

/**
 * Applies the plain SQL files of src/db/migrations in name order, each once, each in its own transaction.
 * Both drivers run the same files. On PostgreSQL an advisory lock keeps two processes from migrating at once.
 */
export async function migrate(db: Db, dir = MIGRATIONS_DIR): Promise<MigrationResult> {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith(".sql"))
    .sort();
  const applied: string[] = [];
  const run = async () => {
    await db.exec(
      "create table if not exists schema_migrations (name text primary key, applied_at timestamptz not null default now())",
    );
    const done = new Set(
      (await db.query<{ name: string }>("select name from schema_migrations")).map((r) => r.name),
    );
    for (const file of files) {
      if (done.has(file)) continue;
      const sql = readFileSync(join(dir, file), "utf8");
      await db.transaction(async (tx) => {
        await tx.exec(sql);
        await tx.query("insert into schema_migrations (name) values ($1)", [file]);
      });
      applied.push(file);
    }
  };
  if (db.kind === "postgres") {
    await db.query("select pg_advisory_lock(7163) ");
    try {
      await run();
    } finally {
      await db.query("select pg_advisory_unlock(7163)");
    }
  } else {
    await run();
  }
  return { applied, total: files.length };
}
