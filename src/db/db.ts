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
}

export interface Db extends Queryable {
  readonly kind: "postgres" | "pglite";
  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
