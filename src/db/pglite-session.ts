import { PGlite, type Transaction } from "@electric-sql/pglite";
import type { Queryable } from "./db.js";

/**
 * The one connection of an embedded database, in this thread or in a worker (pglite-thread.ts); pglite.ts decides
 * which statement runs on it next.
 */
export interface PgliteSession extends Queryable {
  copyFrom(table: string, columns: readonly string[], data: string): Promise<void>;
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** The data directory as a tarball, loadable as a template. */
  dump(): Promise<Blob>;
  close(): Promise<void>;
}

function wrap(conn: PGlite | Transaction): Queryable & Pick<PgliteSession, "copyFrom"> {
  return {
    async query<T>(sql: string, params?: readonly unknown[]) {
      const r = await conn.query<T>(sql, params as unknown[] | undefined);
      return r.rows;
    },
    async exec(sql: string) {
      await conn.exec(sql);
    },
    async copyFrom(table, columns, data) {
      // PGlite has no client stream: COPY reads the rows from a blob handed to the query.
      await conn.query(`copy ${table} (${columns.join(", ")}) from '/dev/blob'`, [], {
        blob: new Blob([data]),
      });
    },
  };
}

/** PGlite on this thread: `dir` undefined keeps it in memory. */
export async function openPgliteHere(dir?: string, template?: Blob): Promise<PgliteSession> {
  const pg = new PGlite({ ...(dir ? { dataDir: dir } : {}), ...(template ? { loadDataDir: template } : {}) });
  await pg.waitReady;
  return {
    ...wrap(pg),
    transaction: (fn) => pg.transaction((tx) => fn(wrap(tx))),
    dump: () => pg.dumpDataDir("none"),
    close: () => pg.close(),
  };
}
