import { toBytea } from "../../../db/bytes.js";
import { type CopyType, CopyWriter, copyType } from "../../../db/copy-writer.js";
import type { Queryable } from "../../../db/db.js";

/** One column of a bulk insert: its PostgreSQL element type and how a row gives its value. */
export type BulkColumn<T> = {
  column: string;
  /** Element type of the array parameter, e.g. `int8`, `bytea` (bytea values: 0x-hex strings or Buffers). */
  type: string;
  get: (row: T) => unknown;
  /** `unnest` only: the parameter array's element for a value, when it is not the value itself. */
  param?: (value: never) => unknown;
  /** `unnest` only: SQL turning the unnested value (the expression given) into the stored one. */
  sql?: (value: string) => string;
  /**
   * COPY only: the table column's type when it is not `type` (which `sql` then converts to): the value `get`
   * gives, encoded as that type (copy-writer.ts), e.g. Unix seconds as `timestamptz`.
   */
  stored?: CopyType;
};

/** The rows as binary COPY tuples (copy-writer.ts); the tuples of consecutive rows concatenate. */
export type CopyBytes = Uint8Array;

/** A bulk insert of `T` rows: the write, and its COPY tuples built ahead of the batch transaction. */
export type BulkInsert<T> = ((tx: Queryable, rows: readonly T[]) => Promise<void>) & {
  /**
   * The rows' COPY tuples. Built when a block arrives (a stage's `afterFetch`), beside the writes of earlier ranges,
   * so the batch transaction, which every range waits for, only sends it.
   */
  encode(rows: readonly T[]): CopyBytes;
  /**
   * Writes `rows` whose COPY tuples are `tuples` (`encode`'s, of these rows in this order; the tuples of
   * consecutive parts concatenate): COPY sends them as they are, a connection without COPY inserts the rows.
   */
  writeEncoded(tx: Queryable, rows: readonly T[], tuples: CopyBytes): Promise<void>;
  /** The table's column names, in the order of the tuples' fields. */
  columns: readonly string[];
};

/** Each column's type in the table, as its COPY fields are encoded (an unknown type fails here, once). */
export function copyTypesOf<T>(columns: readonly BulkColumn<T>[]): CopyType[] {
  return columns.map((c) => copyType(c.stored ?? c.type));
}

/**
 * Writes the COPY tuples of `rows` in `columns` (`types`: copyTypesOf them) into `w`; with `later`, each tuple
 * counts that many more fields, written after it once they are known (see core/store.ts). Returns where each row
 * ends in `w`.
 */
export function writeCopyRows<T>(
  w: CopyWriter,
  columns: readonly BulkColumn<T>[],
  types: readonly CopyType[],
  rows: readonly T[],
  later = 0,
): number[] {
  const count = columns.length;
  const ends = new Array<number>(rows.length);
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r]!;
    w.row(count + later);
    for (let i = 0; i < count; i++) w.field(columns[i]!.get(row), types[i]!);
    ends[r] = w.length;
  }
  return ends;
}

/**
 * A multi-row insert of any number of rows in one statement. Where the connection can (`Queryable.copyFrom`), the
 * rows go in by COPY in binary format, built straight from the rows' hex and decimal strings; elsewhere by one array
 * parameter per column, unnested side by side (`insert into t (a, b) select x1, x2 from unnest($1::int8[],
 * $2::bytea[]) as x(x1, x2)`). Both store the same values; each column is declared once, so names, types and
 * values cannot drift apart.
 */
export function bulkInsert<T>(table: string, columns: readonly BulkColumn<T>[]): BulkInsert<T> {
  const alias = (i: number) => `x${i + 1}`;
  const sql = `insert into ${table} (${columns.map((c) => c.column).join(", ")})
     select ${columns.map((c, i) => (c.sql ? c.sql(alias(i)) : alias(i))).join(", ")}
     from unnest(${columns.map((c, i) => `$${i + 1}::${c.type}[]`).join(", ")})
       as x(${columns.map((_, i) => alias(i)).join(", ")})`;
  const names = columns.map((c) => c.column);
  const param = (c: BulkColumn<T>) => {
    const own = c.param as ((v: unknown) => unknown) | undefined;
    if (own) return (v: unknown) => (v == null ? null : own(v));
    return c.type === "bytea" ? (v: unknown) => (typeof v === "string" ? toBytea(v) : v) : null;
  };
  const params = columns.map(param);
  const types = copyTypesOf(columns);
  const encode = (rows: readonly T[]) => {
    const w = new CopyWriter(rows.length * 128);
    writeCopyRows(w, columns, types, rows);
    return w.bytes();
  };
  const writeEncoded = async (tx: Queryable, rows: readonly T[], tuples: CopyBytes) => {
    if (rows.length === 0) return;
    if (tx.copyFrom) {
      await tx.copyFrom(table, names, tuples);
      return;
    }
    await tx.query(
      sql,
      columns.map((c, i) => {
        const p = params[i];
        return p ? rows.map((r) => p(c.get(r))) : rows.map(c.get);
      }),
    );
  };
  const write = (tx: Queryable, rows: readonly T[]) =>
    writeEncoded(tx, rows, tx.copyFrom && rows.length ? encode(rows) : new Uint8Array(0));
  return Object.assign(write, { encode, writeEncoded, columns: names });
}
