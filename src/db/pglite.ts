import { mkdirSync } from "node:fs";
import { PGlite, type Transaction } from "@electric-sql/pglite";
import { copyFrameParts, copyStatement } from "./copy-writer.js";
import type { Db, Queryable } from "./db.js";
import { searchPathStatement } from "./search-path.js";

function wrap(conn: PGlite | Transaction): Queryable {
  return {
    async query<T>(sql: string, params?: readonly unknown[]) {
      const r = await conn.query<T>(sql, params as unknown[] | undefined);
      return r.rows;
    },
    async exec(sql: string) {
      await conn.exec(sql);
    },
    async copyFrom(table, columns, tuples) {
      // PGlite has no client stream: COPY reads the rows from a blob handed to the query.
      await conn.query(copyStatement(table, columns, "'/dev/blob'"), [], {
        blob: new Blob(copyFrameParts(tuples)),
      });
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

/** How long statements may go ahead of waiting transactions before one of these runs. */
const STATEMENTS_AHEAD_MS = 50;

export async function createPgliteDb(dir?: string, template?: Blob): Promise<PgliteDb> {
  if (dir) mkdirSync(dir, { recursive: true });
  const pg = new PGlite({ ...(dir ? { dataDir: dir } : {}), ...(template ? { loadDataDir: template } : {}) });
  await pg.waitReady;
  // One in-process connection: chain handles (inSchema) take turns on it, each setting its search path first when
  // another left a different one. Until a chain handle exists nothing is queued here (one chain: as always).
  let scoped = false;
  let current: string | null = null;
  // Two queues: statements (an API page's reads, short) and transactions (an indexer's batch, long). Statements go
  // first, so a page of one chain does not wait behind every chain's queued batches; a page's next statement, issued
  // when its last one answered, is let in too (one turn of the event loop). After STATEMENTS_AHEAD_MS of statements
  // since the last transaction, a waiting transaction runs next, so no batch waits for ever.
  type Turn = { schema: string | null; run: () => Promise<void>; fail: (e: unknown) => void };
  const statements: Turn[] = [];
  const transactions: Turn[] = [];
  let busy = false;
  const take = async (t: Turn) => {
    try {
      if (current !== t.schema) {
        await pg.exec(searchPathStatement(t.schema));
        current = t.schema;
      }
    } catch (e) {
      // A failure to set the search path is the statement's failure.
      t.fail(e);
      return;
    }
    await t.run();
  };
  const pump = async () => {
    if (busy) return;
    busy = true;
    try {
      // When the last transaction ended: statements go ahead of waiting ones for STATEMENTS_AHEAD_MS from then.
      let since = performance.now();
      let afterStatement = false;
      while (statements.length || transactions.length) {
        const ahead = transactions.length > 0 && performance.now() - since < STATEMENTS_AHEAD_MS;
        if (!statements.length && afterStatement && ahead) {
          afterStatement = false;
          await new Promise((resolve) => setImmediate(resolve));
          continue;
        }
        if (statements.length && (ahead || !transactions.length)) {
          afterStatement = true;
          await take(statements.shift()!);
          continue;
        }
        afterStatement = false;
        const t = transactions.shift();
        if (!t) continue;
        await take(t);
        since = performance.now();
      }
    } finally {
      busy = false;
    }
  };
  const onPath = <T>(schema: string | null, fn: () => Promise<T>, long = false): Promise<T> => {
    if (!scoped) return fn();
    return new Promise<T>((resolve, reject) => {
      const run = async () => {
        try {
          resolve(await fn());
        } catch (e) {
          reject(e);
        }
      };
      (long ? transactions : statements).push({ schema, run, fail: reject });
      void pump();
    });
  };
  const direct = wrap(pg);
  const handle = (schema: string | null): PgliteDb => ({
    kind: "pglite",
    query: (sql, params) => onPath(schema, () => direct.query(sql, params)),
    exec: (sql) => onPath(schema, () => direct.exec(sql)),
    copyFrom: (table, columns, tuples) =>
      onPath(schema, () => direct.copyFrom!(table, columns, tuples), true),
    transaction: (fn) => onPath(schema, () => pg.transaction((tx) => fn(wrap(tx))), true),
    dump: () => pg.dumpDataDir("none"),
    async close() {
      if (schema === null) await pg.close();
    },
    inSchema(name: string) {
      searchPathStatement(name);
      scoped = true;
      return handle(name);
    },
  });
  return handle(null);
}
