import type { Queryable } from "../../../db/db.js";

/** One column of an `unnest` insert: its PostgreSQL element type and how a row gives its value. */
export type UnnestColumn<T> = {
  column: string;
  /** Element type of the array parameter, e.g. `int8`, `bytea`. */
  type: string;
  get: (row: T) => unknown;
  /** SQL turning the unnested value (the expression given) into the stored one, when they differ. */
  sql?: (value: string) => string;
};

/**
 * A multi-row insert of any number of rows in one statement: one array parameter per column, unnested side by
 * side (`insert into t (a, b) select x1, x2 from unnest($1::int8[], $2::bytea[]) as x(x1, x2)`). The statement
 * is built once; each column is declared on one line, so names, types and values cannot drift apart.
 */
export function unnestInsert<T>(
  table: string,
  columns: readonly UnnestColumn<T>[],
): (tx: Queryable, rows: readonly T[]) => Promise<void> {
  const alias = (i: number) => `x${i + 1}`;
  const sql = `insert into ${table} (${columns.map((c) => c.column).join(", ")})
     select ${columns.map((c, i) => (c.sql ? c.sql(alias(i)) : alias(i))).join(", ")}
     from unnest(${columns.map((c, i) => `$${i + 1}::${c.type}[]`).join(", ")})
       as x(${columns.map((_, i) => alias(i)).join(", ")})`;
  return async (tx, rows) => {
    if (rows.length === 0) return;
    await tx.query(
      sql,
      columns.map((c) => rows.map(c.get)),
    );
  };
}
