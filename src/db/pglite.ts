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

/**
 * Embedded PostgreSQL (WebAssembly). `dir` undefined means in memory (tests). `template` is a data directory
 * dumped by `dumpDataDir` to start from instead of running initdb (seconds faster; used by tests).
 */
export type PgliteDb = Db & {
  /** The data directory as a tarball, loadable as a `template`. */
  dump(): Promise<Blob>;
};

export async function createPgliteDb(dir?: string, template?: Blob): Promise<PgliteDb> {
  if (dir) mkdirSync(dir, { recursive: true });
  const pg = new PGlite({ ...(dir ? { dataDir: dir } : {}), ...(template ? { loadDataDir: template } : {}) });
  await pg.waitReady;
  return {
    kind: "pglite",
    ...wrap(pg),
    transaction: (fn) => pg.transaction((tx) => fn(wrap(tx))),
    dump: () => pg.dumpDataDir("none"),
    async close() {
      await pg.close();
    },
  };
}
