import { mkdirSync } from "node:fs";
import type { Db } from "./db.js";
import { openPgliteHere, type PgliteSession } from "./pglite-session.js";
import { startPgliteThread } from "./pglite-thread.js";
import { searchPathStatement } from "./search-path.js";

/**
 * Embedded PostgreSQL (WebAssembly). `dir` undefined means in memory (tests). `template` is a data directory
 * dumped by `dump` to start from instead of running initdb (seconds faster; used by tests). `thread`: the SQL runs
 * in a worker thread (pglite-thread.ts), as the service runs it; otherwise on this thread.
 */
export type PgliteDb = Db & {
  /** The data directory as a tarball, loadable as a `template`. */
  dump(): Promise<Blob>;
};

/** How long statements may go ahead of waiting transactions before one of these runs. */
const STATEMENTS_AHEAD_MS = 50;

export async function createPgliteDb(
  dir?: string,
  template?: Blob,
  options: { thread?: boolean } = {},
): Promise<PgliteDb> {
  if (dir) mkdirSync(dir, { recursive: true });
  const pg: PgliteSession = options.thread
    ? await startPgliteThread(dir, template)
    : await openPgliteHere(dir, template);
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
  const handle = (schema: string | null): PgliteDb => ({
    kind: "pglite",
    query: (sql, params) => onPath(schema, () => pg.query(sql, params)),
    exec: (sql) => onPath(schema, () => pg.exec(sql)),
    copyFrom: (table, columns, data) => onPath(schema, () => pg.copyFrom(table, columns, data), true),
    transaction: (fn) => onPath(schema, () => pg.transaction(fn), true),
    dump: () => pg.dump(),
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
