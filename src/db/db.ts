/**
 * One small interface over both drivers (node-postgres and PGlite), so every query is written once.
 * Conventions every caller relies on:
 * - parameters are `$1..$n`; bytea parameters are Buffers (see bytes.ts), numerics are decimal strings;
 * - `int8` comes back as a JS number (block numbers, indexes), `numeric` as a decimal string,
 *   `bytea` as a Uint8Array (Buffer on pg), `timestamptz` as a Date.
 */
export type QueryOptions = {
  /**
   * For hot reads whose text is one of a few fixed shapes (never text built from values): on PostgreSQL the
   * statement is prepared once per connection and its plan reused, which for the explorer's page statements costs
   * more than running them. Ignored by PGlite (one in-process connection, no planning round trip to save).
   */
  prepare?: boolean;
};

export interface Queryable {
  query<T = Record<string, unknown>>(
    sql: string,
    params?: readonly unknown[],
    options?: QueryOptions,
  ): Promise<T[]>;
  /** Runs several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
  /**
   * Bulk load: `copy <table> (<columns>) from stdin (format binary)` with `tuples` in COPY's binary format, without
   * its header and trailer (copy-writer.ts), one round trip for any number of rows and no parameter arrays to
   * encode. Optional: wrappers without it (plans tests, statement timers) get the same rows by an `unnest` insert
   * (bulk-insert.ts).
   */
  copyFrom?(table: string, columns: readonly string[], tuples: Uint8Array): Promise<void>;
  /**
   * A statement whose rows nobody reads (an insert, update or delete without `returning`). A pipelined transaction
   * (`Db.pipelinedTransaction`) sends it without waiting for the previous answer and resolves at once; its failure
   * fails the next statement awaited, or the commit. Optional: call it through `command` (below).
   */
  command?(sql: string, params?: readonly unknown[]): Promise<void>;
}

/** Runs a statement whose rows nobody reads: pipelined where `tx` pipelines, else an ordinary query. */
export async function command(tx: Queryable, sql: string, params?: readonly unknown[]): Promise<void> {
  if (tx.command) return tx.command(sql, params);
  await tx.query(sql, params);
}

/**
 * A read sent now and awaited later, after more statements are sent behind it: a transaction runs its statements in
 * the order they were sent, so the read sees what went before it and nothing after, and in a pipelined transaction
 * the statements behind it go out without waiting for its answer (one wait for the main thread instead of one per
 * read). Its failure is held until awaited (no unhandled rejection meanwhile); await every read ahead before the
 * transaction ends.
 */
export function readAhead<T>(read: Promise<T>): Promise<T> {
  read.catch(() => {});
  return read;
}

export interface Db extends Queryable {
  readonly kind: "postgres" | "pglite";
  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * The same on PostgreSQL's writer thread (pg-writer.ts), for write transactions on the indexer's critical path:
   * `copyFrom` and `command` go out without waiting for earlier answers; a failure fails the next awaited statement
   * or the commit. Absent on PGlite (in process: nothing to wait for).
   */
  pipelinedTransaction?<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /**
   * A handle on the same connections whose statements see `schema` first, then `public` (search_path): one chain's
   * tables of a deployment indexing several (src/db/chain-schema.ts). Closing it closes nothing; the base owns the
   * connections.
   */
  inSchema?(schema: string): Db;
}
