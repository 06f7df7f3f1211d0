import { toBytea } from "../../../db/bytes.js";
import { copyField } from "../../../db/copy-text.js";
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
  /** COPY only: the field's text for a non-null value, when `copyField` by `type` is not it. */
  copy?: (value: never) => string;
};

/** A bulk insert of `T` rows: the write, and its COPY text built ahead of the batch transaction. */
export type BulkInsert<T> = ((tx: Queryable, rows: readonly T[]) => Promise<void>) & {
  /**
   * The rows' COPY text. Built when a block arrives (a stage's `afterFetch`), beside the writes of earlier ranges,
   * so the batch transaction, which every range waits for, only sends it.
   */
  encode(rows: readonly T[]): string;
  /**
   * Writes `rows` whose COPY text is `text` (`encode`'s, of these rows in this order; texts of consecutive parts
   * concatenate): COPY sends the text as it is, a connection without COPY inserts the rows.
   */
  writeEncoded(tx: Queryable, rows: readonly T[], text: string): Promise<void>;
  /** The table's column names, in the order of the COPY text's fields. */
  columns: readonly string[];
};

/**
 * The COPY text of `rows` in `columns`, each row's fields tab-separated; `end` after each row (a newline, or a tab
 * when more fields follow that are only known later: see core/store.ts).
 */
export function copyLines<T>(columns: readonly BulkColumn<T>[], rows: readonly T[], end = "\n"): string[] {
  const fields = columns.map(fieldOf);
  const last = columns.length - 1;
  const out = new Array<string>(rows.length);
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r]!;
    let line = "";
    for (let i = 0; i < last; i++) line += `${fields[i]!(columns[i]!.get(row))}\t`;
    out[r] = line + fields[last]!(columns[last]!.get(row)) + end;
  }
  return out;
}

function fieldOf<T>(c: BulkColumn<T>): (v: unknown) => string {
  const own = c.copy as ((v: unknown) => string) | undefined;
  return own ? (v: unknown) => (v == null ? "\\N" : own(v)) : (v: unknown) => copyField(v, c.type);
}

/**
 * A multi-row insert of any number of rows in one statement. Where the connection can (`Queryable.copyFrom`), the
 * rows go in by COPY in text format, built straight from the rows' hex and decimal strings; elsewhere by one array
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
  const encode = (rows: readonly T[]) => copyLines(columns, rows).join("");
  const writeEncoded = async (tx: Queryable, rows: readonly T[], text: string) => {
    if (rows.length === 0) return;
    if (tx.copyFrom) {
      await tx.copyFrom(table, names, text);
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
    writeEncoded(tx, rows, tx.copyFrom && rows.length ? encode(rows) : "");
  return Object.assign(write, { encode, writeEncoded, columns: names });
}
