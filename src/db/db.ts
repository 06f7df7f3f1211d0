/**
 * One small interface over both drivers (node-postgres and PGlite), so every query is written once.
 * Conventions every caller relies on:
 * - parameters are `$1..$n`; bytea parameters are Buffers (see bytes.ts), numerics are decimal strings;
 * - `int8` comes back as a JS number (block numbers, indexes), `numeric` as a decimal string,
 *   `bytea` as a Uint8Array (Buffer on pg), `timestamptz` as a Date.
 */
export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  /** Runs several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
}

export interface Db extends Queryable {
  readonly kind: "postgres" | "pglite";
  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
