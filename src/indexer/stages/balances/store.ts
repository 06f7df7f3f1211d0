import type { Queryable } from "../../../db/db.js";
import { byBlock } from "../balance-changes-by-block.js";
import { bulkInsert } from "../core/bulk-insert.js";
import type { BalanceChangeRow } from "./derive.js";

/** The batch's balance changes, by COPY where the connection has it (core/bulk-insert.ts), as the core rows go in. */
const insertChanges = bulkInsert<BalanceChangeRow>("coin_balance_changes", [
  { column: "address", type: "bytea", get: (r) => r.address },
  { column: "block_number", type: "int8", get: (r) => r.blockNumber },
  { column: "value", type: "numeric", get: (r) => r.value },
  { column: "delta", type: "numeric", get: (r) => r.delta },
  { column: "transaction_hash", type: "bytea", get: (r) => r.transactionHash },
  {
    column: "block_timestamp",
    type: "int8",
    get: (r) => r.timestamp,
    sql: (v) => `to_timestamp(${v})`,
    stored: "timestamptz",
  },
]);

/** The rows' COPY tuples (built ahead of the batch transaction). */
export const encodeBalanceChanges = (rows: readonly BalanceChangeRow[]): Uint8Array =>
  insertChanges.encode(rows);

/**
 * Inserts one batch of balance changes (inside the batch transaction); `text`: the rows' COPY tuples built ahead
 * (encodeBalanceChanges), else built now.
 */
export async function writeBalanceChanges(
  tx: Queryable,
  rows: readonly BalanceChangeRow[],
  text?: Uint8Array,
): Promise<void> {
  if (rows.length === 0) return;
  if (text === undefined) await insertChanges(tx, rows);
  else await insertChanges.writeEncoded(tx, rows, text);
}

/**
 * Deletes the changes of every block above `ancestor` (reorganisation, or -1 to wipe); the current balances stage,
 * reverted before this one, has moved its balances back by then.
 */
export async function revertBalanceChanges(tx: Queryable, ancestor: number): Promise<void> {
  await tx.query(`delete from coin_balance_changes where block_number > $1 and ${byBlock()}`, [ancestor]);
}
