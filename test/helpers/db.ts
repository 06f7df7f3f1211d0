import { randomBytes } from "node:crypto";
import pg from "pg";
import type { Db } from "../../src/db/db.js";
import { migrate } from "../../src/db/migrate.js";
import { createPostgresDb } from "../../src/db/pg.js";
import { createPgliteDb } from "../../src/db/pglite.js";

export type TestDb = { db: Db; url: string | undefined; drop(): Promise<void> };

/** URL of a fresh, empty PostgreSQL database when TEST_DATABASE_URL is set; undefined otherwise. */
export async function createTestDatabaseUrl(): Promise<{ url: string; drop(): Promise<void> } | undefined> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) return undefined;
  const name = `lookout_t_${Date.now().toString(36)}_${randomBytes(3).toString("hex")}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const u = new URL(base);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

/** A migrated database for one test: in-memory PGlite, or a fresh PostgreSQL database when TEST_DATABASE_URL is set. */
export async function createTestDb(): Promise<TestDb> {
  const pgUrl = await createTestDatabaseUrl();
  const db = pgUrl ? await createPostgresDb(pgUrl.url) : await createPgliteDb();
  await migrate(db);
  return {
    db,
    url: pgUrl?.url,
    async drop() {
      await db.close();
      await pgUrl?.drop();
    },
  };
}
