import { Worker } from "node:worker_threads";
import type { Queryable } from "./db.js";
import type { PgliteSession } from "./pglite-session.js";

/**
 * PGlite in a worker thread: the SQL (WebAssembly, its file system emulation, its wire protocol) runs beside the
 * process's event loop instead of on it, so an API page's JSON, a socket's push and the indexer's fetch go on while
 * a batch is written, and one long statement does not stall every request. The worker only executes: which statement
 * runs next is decided on the main thread (pglite.ts), so the worker holds one connection and at most one transaction.
 *
 * The worker's code is plain JavaScript given as a string (as the compiler workers are), so the same file runs from
 * `dist/` and under the TypeScript test runner; PGlite is loaded from the URL the main thread resolved.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const FIELDS = ${JSON.stringify([
  "name",
  "severity",
  "code",
  "detail",
  "hint",
  "position",
  "internalPosition",
  "internalQuery",
  "where",
  "schema",
  "table",
  "column",
  "dataType",
  "constraint",
  "file",
  "line",
  "routine",
])};
const plain = (e) => {
  const o = { message: e && e.message !== undefined ? String(e.message) : String(e) };
  for (const k of FIELDS) {
    const v = e && e[k];
    if (typeof v === "string" || typeof v === "number") o[k] = v;
  }
  return o;
};
const ok = (id, value, transfer) => parentPort.postMessage({ id, ok: true, value }, transfer);
const fail = (id, e) => parentPort.postMessage({ id, ok: false, error: plain(e) });
const ROLLBACK = Symbol("rollback");
const open = new Map();
let nextTx = 1;
let pg;
const on = (tx) => {
  if (!tx) return pg;
  const t = open.get(tx);
  if (!t) throw new Error("transaction " + tx + " is not open");
  return t.tx;
};
const handle = async (m) => {
  switch (m.op) {
    case "query":
      return ok(m.id, (await on(m.tx).query(m.sql, m.params)).rows);
    case "exec":
      await on(m.tx).exec(m.sql);
      return ok(m.id);
    case "copy":
      // PGlite has no client stream: COPY reads the rows from a blob handed to the query.
      await on(m.tx).query("copy " + m.table + " (" + m.columns.join(", ") + ") from '/dev/blob'", [], {
        blob: new Blob([m.data]),
      });
      return ok(m.id);
    case "begin": {
      const id = nextTx++;
      let entered = false;
      const t = { tx: undefined, end: undefined };
      pg.transaction(
        (tx) =>
          new Promise((resolve, reject) => {
            entered = true;
            t.tx = tx;
            t.resolve = resolve;
            t.reject = reject;
            open.set(id, t);
            ok(m.id, id);
          }),
      ).then(
        () => ok(t.end),
        (e) => (entered ? (e === ROLLBACK ? ok(t.end) : fail(t.end, e)) : fail(m.id, e)),
      );
      return;
    }
    case "end": {
      const t = open.get(m.tx);
      if (!t) throw new Error("transaction " + m.tx + " is not open");
      open.delete(m.tx);
      t.end = m.id;
      if (m.commit) t.resolve();
      else t.reject(ROLLBACK);
      return;
    }
    case "dump": {
      const buf = await (await pg.dumpDataDir("none")).arrayBuffer();
      return ok(m.id, buf, [buf]);
    }
    case "close":
      await pg.close();
      return ok(m.id);
  }
};
(async () => {
  const { PGlite } = await import(workerData.pglite);
  pg = new PGlite({
    ...(workerData.dir ? { dataDir: workerData.dir } : {}),
    ...(workerData.template ? { loadDataDir: new Blob([workerData.template]) } : {}),
  });
  await pg.waitReady;
  parentPort.on("message", (m) => handle(m).catch((e) => fail(m.id, e)));
  parentPort.postMessage({ ready: true });
})().catch((e) => parentPort.postMessage({ ready: false, error: plain(e) }));
`;

type Reply = { id: number; ok: boolean; value?: unknown; error?: Record<string, unknown> };
type Request =
  | { op: "query"; sql: string; params: readonly unknown[] | undefined; tx?: number }
  | { op: "exec"; sql: string; tx?: number }
  | { op: "copy"; table: string; columns: readonly string[]; data: string; tx?: number }
  | { op: "begin" }
  | { op: "end"; tx: number; commit: boolean }
  | { op: "dump" }
  | { op: "close" };

/** An error from the worker, with PostgreSQL's fields (code, detail, constraint…) as a driver's error has them. */
function rebuild(e: Record<string, unknown> | undefined): Error {
  const { message, name, ...fields } = e ?? {};
  const err = new Error(typeof message === "string" ? message : "embedded database error");
  if (typeof name === "string") err.name = name;
  return Object.assign(err, fields);
}

/** Starts the worker and opens (or creates) the data directory in it; `dir` undefined keeps it in memory. */
export async function startPgliteThread(dir?: string, template?: Blob): Promise<PgliteSession> {
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: {
      pglite: import.meta.resolve("@electric-sql/pglite"),
      dir,
      template: template ? await template.arrayBuffer() : undefined,
    },
  });
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: unknown) => void }>();
  let nextId = 1;
  let stopped: Error | undefined;
  // The worker keeps the process alive only while a request is in flight, as an in-process database would.
  const stop = (e: Error) => {
    stopped ??= e;
    for (const p of pending.values()) p.reject(stopped);
    pending.clear();
  };

  await new Promise<void>((resolve, reject) => {
    const early = (e: unknown) =>
      reject(e instanceof Error ? e : new Error(`embedded database worker exited (${String(e)})`));
    worker.once("message", (m: { ready: boolean; error?: Record<string, unknown> }) => {
      worker.off("error", early);
      worker.off("exit", early);
      if (m.ready) resolve();
      else reject(rebuild(m.error));
    });
    worker.once("error", early);
    worker.once("exit", early);
  }).catch(async (e) => {
    await worker.terminate();
    throw e;
  });

  worker.unref();
  worker.on("message", (m: Reply) => {
    const p = pending.get(m.id);
    if (!p) return;
    pending.delete(m.id);
    if (pending.size === 0) worker.unref();
    if (m.ok) p.resolve(m.value);
    else p.reject(rebuild(m.error));
  });
  worker.on("error", (e) => stop(new Error(`the embedded database stopped: ${e.message}`, { cause: e })));
  worker.on("exit", (code) => stop(new Error(`the embedded database stopped (worker exit ${code})`)));

  const send = <T>(req: Request, transfer?: ArrayBuffer[]): Promise<T> => {
    if (stopped) return Promise.reject(stopped);
    const id = nextId++;
    return new Promise<T>((resolve, reject) => {
      if (pending.size === 0) worker.ref();
      pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      worker.postMessage({ ...req, id }, transfer);
    });
  };

  const on = (tx?: number): Queryable => ({
    query: <T>(sql: string, params?: readonly unknown[]) =>
      send<T[]>({ op: "query", sql, params, ...(tx ? { tx } : {}) }),
    exec: (sql: string) => send<void>({ op: "exec", sql, ...(tx ? { tx } : {}) }),
    copyFrom: (table, columns, data) =>
      send<void>({ op: "copy", table, columns, data, ...(tx ? { tx } : {}) }),
  });
  const direct = on();

  return {
    ...direct,
    copyFrom: direct.copyFrom!,
    async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
      const tx = await send<number>({ op: "begin" });
      let result: T;
      try {
        result = await fn(on(tx));
      } catch (e) {
        await send<void>({ op: "end", tx, commit: false }).catch(() => undefined);
        throw e;
      }
      await send<void>({ op: "end", tx, commit: true });
      return result;
    },
    async dump() {
      return new Blob([await send<ArrayBuffer>({ op: "dump" })]);
    },
    async close() {
      if (stopped) return;
      await send<void>({ op: "close" });
      stopped = new Error("the embedded database is closed");
      await worker.terminate();
    },
  };
}
