import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import pg from "pg";
import type { Db, Queryable } from "../../src/db/db.js";
import { migrate } from "../../src/db/migrate.js";
import { createPostgresDb } from "../../src/db/pg.js";
import { packagePath } from "../../src/util/package-root.js";

/** A migrated PGlite data directory written by test/global-setup.ts, so tests skip initdb. */
export const PGLITE_TEMPLATE = packagePath("node_modules/.cache/lookout-test-pglite-template.tar");
let template: Blob | undefined;
function pgliteTemplate(): Blob | undefined {
  if (!template && existsSync(PGLITE_TEMPLATE)) template = new Blob([readFileSync(PGLITE_TEMPLATE)]);
  return template;
}

import { createPgliteDb } from "../../src/db/pglite.js";

export type TestDb = { db: Db; url: string | undefined; drop(): Promise<void> };

/** URL of a fresh, empty PostgreSQL database when TEST_DATABASE_URL is set; undefined otherwise. */
export async function createTestDatabaseUrl(): Promise<{ url: string; drop(): Promise<void> } | undefined> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) return undefined;
  // TEST_DATABASE_PREFIX lets several checkouts sharing one server tell their databases apart.
  const prefix = process.env.TEST_DATABASE_PREFIX?.replace(/[^a-z0-9_]/g, "") || "lookout_t";
  const name = `${prefix}_${Date.now().toString(36)}_${randomBytes(3).toString("hex")}`;
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
  const db = pgUrl ? await createPostgresDb(pgUrl.url) : await createPgliteDb(undefined, pgliteTemplate());
  // A no-op on the template unless a migration was added since it was made.
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

/** `db` whose transactions hand `fn` the wrapped `tx` (statements observed or made to fail by a test). */
export function wrapTransactions(db: Db, wrap: (tx: Queryable) => Queryable): Db {
  return {
    kind: db.kind,
    query: db.query.bind(db),
    exec: db.exec.bind(db),
    close: db.close.bind(db),
    transaction: (fn) => db.transaction((tx) => fn(wrap(tx))),
  };
}
