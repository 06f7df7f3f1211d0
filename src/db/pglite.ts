import { mkdirSync } from "node:fs";
import { PGlite, type Transaction } from "@electric-sql/pglite";
import type { Db, Queryable } from "./db.js";

function wrap(conn: PGlite | Transaction): Queryable {
  return {
    async query<T>(sql: string, params?: readonly unknown[]) {
      const r = await conn.query<T>(sql, params as unknown[] | undefined);
      return r.rows;
    },
    async exec(sql: string) {
      await conn.exec(sql);
    },
  };
}

/** Embedded PostgreSQL (WebAssembly). `dir` undefined means in memory (tests). */
export async function createPgliteDb(dir?: string): Promise<Db> {
  if (dir) mkdirSync(dir, { recursive: true });
  const pg = dir ? new PGlite(dir) : new PGlite();
  await pg.waitReady;
  return {
    kind: "pglite",
    ...wrap(pg),
    transaction: (fn) => pg.transaction((tx) => fn(wrap(tx))),
    async close() {
      await pg.close();
    },
  };
}
