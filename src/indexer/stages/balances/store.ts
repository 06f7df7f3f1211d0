import { toBytea, toByteaOrNull } from "../../../db/bytes.js";
import type { Queryable } from "../../../db/db.js";
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
  // The current balance (top accounts): each address's row of its latest block in the batch, newer blocks win. A new
  // row starts with the address's transaction count so far (the counters stage keeps it from then on).
  await tx.query(
    `insert into address_coin_balances (address, value, block_number, transactions_count)
     select distinct on (a) a, v, n, coalesce((select c.transactions_count from address_counters c where c.address = a), 0)
     from unnest($1::bytea[], $2::int8[], $3::numeric[]) as x(a, n, v)
     order by a, n desc
     on conflict (address) do update set value = excluded.value, block_number = excluded.block_number
       where excluded.block_number >= address_coin_balances.block_number`,
    [rows.map((r) => toBytea(r.address)), rows.map((r) => r.blockNumber), rows.map((r) => r.value)],
  );
}

/** Deletes the changes of every block above `ancestor` (reorganisation, or -1 to wipe). */
export async function revertBalanceChanges(tx: Queryable, ancestor: number): Promise<void> {
  await tx.query("delete from coin_balance_changes where block_number > $1", [ancestor]);
  if (ancestor < 0) {
    await tx.query("delete from address_coin_balances");
    return;
  }
  // Current balances set by a reverted block fall back to the address's latest remaining change (or go).
  const gone = await tx.query<{ address: Uint8Array }>(
    "delete from address_coin_balances where block_number > $1 returning address",
    [ancestor],
  );
  if (gone.length === 0) return;
  // The counters stage was reverted first: the count it left is the one of the remaining blocks.
  await tx.query(
    `insert into address_coin_balances (address, value, block_number, transactions_count)
     select g.a, c.value, c.block_number,
       coalesce((select n.transactions_count from address_counters n where n.address = g.a), 0)
     from unnest($1::bytea[]) as g(a)
     cross join lateral (select value, block_number from coin_balance_changes c
       where c.address = g.a order by c.block_number desc limit 1) c`,
    [gone.map((r) => r.address)],
  );
}
