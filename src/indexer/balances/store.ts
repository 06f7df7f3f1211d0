import { toBytea, toByteaOrNull } from "../../db/bytes.js";
import type { Queryable } from "../../db/db.js";
import type { BalanceChangeRow } from "./derive.js";

/** Inserts one batch of balance changes with one multi-row `unnest` insert (inside the batch transaction). */
export async function writeBalanceChanges(tx: Queryable, rows: readonly BalanceChangeRow[]): Promise<void> {
  if (rows.length === 0) return;
  await tx.query(
    `insert into coin_balance_changes (address, block_number, value, delta, transaction_hash, block_timestamp)
     select a, n, v, d, h, to_timestamp(t)
     from unnest($1::bytea[], $2::int8[], $3::numeric[], $4::numeric[], $5::bytea[], $6::int8[]) as x(a, n, v, d, h, t)`,
    [
      rows.map((r) => toBytea(r.address)),
      rows.map((r) => r.blockNumber),
      rows.map((r) => r.value),
      rows.map((r) => r.delta),
      rows.map((r) => toByteaOrNull(r.transactionHash)),
      rows.map((r) => r.timestamp),
    ],
  );
}

/** Deletes the changes of every block above `ancestor` (reorganisation, or -1 to wipe). */
export async function revertBalanceChanges(tx: Queryable, ancestor: number): Promise<void> {
  await tx.query("delete from coin_balance_changes where block_number > $1", [ancestor]);
}
