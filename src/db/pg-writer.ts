import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import { withBinaryByteaArrays } from "./binary-array.js";
import { copyFrameParts, copyStatement } from "./copy-writer.js";
import type { Queryable, QueryOptions } from "./db.js";
import { connectionLost } from "./failures.js";
import { PG_WRITER_SOURCE } from "./pg-writer-source.js";

const require = createRequire(import.meta.url);

type WireError = { message: string; lost: boolean; code?: string; [k: string]: unknown };
type Reply = { id: number; rows?: Record<string, unknown>[]; error?: WireError };
type Waiter = { resolve: (rows: Record<string, unknown>[]) => void; reject: (e: Error) => void };

/** The error of the writer thread as the main pool would have thrown it (code and fields kept). */
function errorFrom(w: WireError): Error {
  const { message, lost, ...fields } = w;
  const e = Object.assign(new Error(message), fields);
  return lost ? connectionLost(e) : e;
}

/** A bytea in a row crosses the thread as a Uint8Array: the same bytes as a Buffer again, as the main pool gives. */
function asBuffer(v: unknown): unknown {
  if (v instanceof Uint8Array && !Buffer.isBuffer(v))
    return Buffer.from(v.buffer, v.byteOffset, v.byteLength);
  if (Array.isArray(v)) return v.map(asBuffer);
  return v;
}

function rowsFromWire(rows: Record<string, unknown>[]): Record<string, unknown>[] {
  for (const row of rows) for (const k in row) row[k] = asBuffer(row[k]);
  return rows;
}

/**
 * A statement as it crosses to the thread: its `bytea[]` parameters in binary (binary-array.ts), each in memory of
 * its own that moves uncopied (`transfer`), where an array of small Buffers would be cloned element by element and
 * then written out as hex text on the thread.
 */
function wire(sql: string, params: readonly unknown[] | undefined) {
  const values = withBinaryByteaArrays(params);
  const transfer: ArrayBuffer[] = [];
  values?.forEach((v, i) => {
    // Only the arrays made here: a caller's own Buffer may share its memory with others.
    if (v !== params?.[i] && v instanceof Buffer) transfer.push(v.buffer as ArrayBuffer);
  });
  return { statement: { t: "query", sql, params: values }, transfer };
}

/**
 * Transactions on a thread of their own whose writes go out without waiting for the previous answer. The indexer's
 * batch transaction is ~30 statements (seven COPYs of two round trips each); on the main thread each answer waited
 * for the thread to finish what it was doing (parsing and deriving the next ranges: an event loop busy two thirds of
 * the time, milliseconds per task), and those waits were a third of the batch's time. Here the statements whose rows
 * nobody reads (`copyFrom`, `command`) are posted and resolved at once; the thread runs them back to back, and a
 * failure fails the next statement awaited (a read, or the commit), so the transaction still commits all or nothing.
 */
export class PipelinedWriter {
  private worker: Worker | null = null;
  private readonly waiting = new Map<number, Waiter>();
  private nextId = 1;
  private nextTx = 1;

  constructor(private readonly config: Record<string, unknown>) {}

  private thread(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(PG_WRITER_SOURCE, {
      eval: true,
      workerData: {
        pgPath: require.resolve("pg"),
        copyStreamsPath: require.resolve("pg-copy-streams"),
        config: this.config,
      },
    });
    worker.on("message", (r: Reply) => {
      const w = this.waiting.get(r.id);
      if (!w) return;
      this.waiting.delete(r.id);
      if (this.waiting.size === 0) worker.unref();
      if (r.error) w.reject(errorFrom(r.error));
      else w.resolve(rowsFromWire(r.rows ?? []));
    });
    const gone = (e: Error) => {
      if (this.worker === worker) this.worker = null;
      for (const w of this.waiting.values()) w.reject(connectionLost(e));
      this.waiting.clear();
    };
    worker.on("error", gone);
    worker.on("exit", (code) => gone(new Error(`the writer thread exited (${code})`)));
    // Idle between transactions it must not keep the process alive; an answer awaited must (ask, above).
    worker.unref();
    this.worker = worker;
    return worker;
  }

  private ask(
    message: Record<string, unknown>,
    transfer?: ArrayBuffer[],
  ): Promise<Record<string, unknown>[]> {
    const id = this.nextId++;
    const worker = this.thread();
    return new Promise((resolve, reject) => {
      if (this.waiting.size === 0) worker.ref();
      this.waiting.set(id, { resolve, reject });
      worker.postMessage({ ...message, id }, transfer);
    });
  }

  /** Runs `fn` in one transaction on the writer thread; committed when it resolves, rolled back when it throws. */
  async transaction<T>(searchPath: string, fn: (tx: Queryable) => Promise<T>): Promise<T> {
    const tx = this.nextTx++;
    const post = (m: Record<string, unknown>, transfer?: ArrayBuffer[]) =>
      this.thread().postMessage({ ...m, tx }, transfer);
    post({ t: "begin", searchPath });
    const q: Queryable = {
      // `prepare` is for the API's hot reads; the writes' texts are planned each time as on the main pool's
      // unprepared path.
      query: async <R>(sql: string, params?: readonly unknown[], _options?: QueryOptions) => {
        const { statement, transfer } = wire(sql, params);
        return (await this.ask({ ...statement, tx }, transfer)) as R[];
      },
      exec: async (sql: string) => {
        await this.ask({ t: "query", tx, sql });
      },
      copyFrom: async (table, columns, tuples) => {
        // Framed in memory of its own, which moves to the thread uncopied: the tuples copied once.
        const parts = copyFrameParts(tuples);
        const data = Buffer.allocUnsafeSlow(parts.reduce((n, p) => n + p.byteLength, 0));
        let at = 0;
        for (const p of parts) {
          data.set(p, at);
          at += p.byteLength;
        }
        this.thread().postMessage({ t: "copy", tx, sql: copyStatement(table, columns), data }, [data.buffer]);
      },
      command: async (sql, params) => {
        const { statement, transfer } = wire(sql, params);
        post(statement, transfer);
      },
    };
    let result: T;
    try {
      result = await fn(q);
    } catch (e) {
      await this.ask({ t: "end", tx, commit: false }).catch(() => {});
      throw e;
    }
    await this.ask({ t: "end", tx, commit: true });
    return result;
  }

  /**
   * Ends the thread and its connections: its pool closes once its transactions end; one still open after
   * `graceMs` (its caller gone) is cut with the thread, which closes its sockets.
   */
  async close(graceMs = 5_000): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    this.worker = null;
    const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
    worker.postMessage({ t: "close" });
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<"late">((resolve) => {
      timer = setTimeout(() => resolve("late"), graceMs);
    });
    if ((await Promise.race([exited, late])) === "late") await worker.terminate();
    clearTimeout(timer);
  }
}
