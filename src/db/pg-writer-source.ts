/**
 * The body of the writer thread (pg-writer.ts), plain CommonJS started with `eval: true` so the same code runs from
 * `src/` under the test runner and from `dist/`. It owns its own node-postgres pool and runs each transaction's
 * operations in the order they were posted, the next one as soon as the previous is answered: its event loop has
 * nothing else to do, so no statement waits for a busy main thread between two round trips.
 *
 * Messages in: `{t:"begin", tx, searchPath}` (the statement setting it), `{t:"query", tx, id?, sql, params}` (id: the caller waits for the
 * rows; none: nobody reads them), `{t:"copy", tx, sql, data}` (sql: the COPY statement; data: its input, binary format framed), `{t:"end", tx, id, commit}`.
 * Messages out: `{id, rows}` or `{id, error}`. The first failure of a transaction is kept and given to the next
 * operation someone waits for (a read or the end); the operations between are not run (the transaction is
 * aborted anyway) and the end rolls back.
 */
export const PG_WRITER_SOURCE = `
"use strict";
const { parentPort, workerData } = require("node:worker_threads");
const { Readable } = require("node:stream");
const { pipeline } = require("node:stream/promises");
const pg = require(workerData.pgPath);
const copyFrom = require(workerData.copyStreamsPath).from;

// pg.ts's type parsers (rows must read the same on both pools); a string, so they cannot be imported.
const INT8 = 20, INT8_ARRAY = 1016, NUMERIC_ARRAY = 1231;
const types = {
  getTypeParser(oid, format) {
    if (oid === INT8) return (v) => Number(v);
    if (oid === INT8_ARRAY) return (v) => pg.types.getTypeParser(1007)(v);
    if (oid === NUMERIC_ARRAY) return (v) => pg.types.getTypeParser(1009)(v);
    return pg.types.getTypeParser(oid, format || "text");
  },
};
const pool = new pg.Pool({ ...workerData.config, types });
pool.on("error", () => {});
const txs = new Map();

function errorOf(e, lost) {
  const out = { message: String((e && e.message) || e), lost: Boolean(lost) };
  if (e && typeof e === "object") {
    for (const k of ["code", "name", "detail", "hint", "constraint", "table", "column", "schema", "routine"]) {
      if (typeof e[k] === "string") out[k] = e[k];
    }
  }
  return out;
}

async function run(state, m) {
  const c = state.client;
  if (m.t === "copy") {
    const stream = c.query(copyFrom(m.sql));
    await pipeline(Readable.from([Buffer.from(m.data.buffer, m.data.byteOffset, m.data.byteLength)]), stream);
    return undefined;
  }
  return (await c.query(m.sql, m.params)).rows;
}

async function step(state, m) {
  if (m.t === "begin") {
    try {
      const client = await pool.connect();
      state.client = client;
      state.onError = (e) => { state.lost = e; };
      client.on("error", state.onError);
      // A client keeps the path of its last transaction: set it when this one's differs.
      if (client.searchPath !== m.searchPath) {
        await client.query(m.searchPath);
        client.searchPath = m.searchPath;
      }
      await client.query("begin");
    } catch (e) {
      state.failed = errorOf(e, state.lost || !state.client);
    }
    return;
  }
  if (m.t === "end") {
    txs.delete(m.tx);
    const client = state.client;
    if (!client) {
      parentPort.postMessage({ id: m.id, error: state.failed });
      return;
    }
    let error = state.failed;
    try {
      if (!error && m.commit) await client.query("commit");
      else await client.query("rollback");
    } catch (e) {
      error = error || errorOf(e, state.lost);
    }
    client.removeListener("error", state.onError);
    client.release(state.lost || undefined);
    parentPort.postMessage(error ? { id: m.id, error } : { id: m.id, rows: [] });
    return;
  }
  // A statement of a transaction this thread never began (the thread that began it ended): its connection is gone.
  if (!state.failed && !state.client) {
    state.failed = { message: "the writer thread that began this transaction ended", lost: true };
  }
  if (state.failed) {
    if (m.id !== undefined) parentPort.postMessage({ id: m.id, error: state.failed });
    return;
  }
  try {
    const rows = await run(state, m);
    if (m.id !== undefined) parentPort.postMessage({ id: m.id, rows: rows || [] });
  } catch (e) {
    state.failed = errorOf(e, state.lost);
    if (m.id !== undefined) parentPort.postMessage({ id: m.id, error: state.failed });
  }
}

parentPort.on("message", (m) => {
  if (m.t === "close") {
    pool.end().finally(() => process.exit(0));
    return;
  }
  let state = txs.get(m.tx);
  if (!state) {
    state = { client: null, failed: null, lost: null, queue: Promise.resolve() };
    txs.set(m.tx, state);
  }
  state.queue = state.queue.then(() => step(state, m));
});
`;
