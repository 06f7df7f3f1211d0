import { toBytea, toByteaOrNull } from "../../../db/bytes.js";
import type { Queryable } from "../../../db/db.js";
import type { BalanceChangeRow } from "./derive.js";

/** Adds `delta` (a SQL expression) to the chain's coin balance sum, kept for stats&action=ethsupply. */
const addToSum = (
  delta: string,
) => `insert into chain_counters (name, value) select 'coin_balance_sum', ${delta}
  on conflict (name) do update set value = chain_counters.value + excluded.value`;

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
  // row starts with the address's transaction count so far (the counters stage keeps it from then on). The rows'
  // change moves the chain's coin balance sum (every CTE reads the table as it was before the statement).
  await tx.query(
    `with latest as (
       select distinct on (a) a, v, n from unnest($1::bytea[], $2::int8[], $3::numeric[]) as x(a, n, v)
       order by a, n desc),
     before as (select b.address, b.value from address_coin_balances b join latest on b.address = latest.a),
     written as (
       insert into address_coin_balances (address, value, block_number, transactions_count)
       select a, v, n, coalesce((select c.transactions_count from address_counters c where c.address = a), 0)
       from latest
       on conflict (address) do update set value = excluded.value, block_number = excluded.block_number
         where excluded.block_number >= address_coin_balances.block_number
       returning address, value)
     ${addToSum("coalesce(sum(w.value - coalesce(b.value, 0)), 0) from written w left join before b on b.address = w.address")}`,
    [rows.map((r) => toBytea(r.address)), rows.map((r) => r.blockNumber), rows.map((r) => r.value)],
  );
}

/** Deletes the changes of every block above `ancestor` (reorganisation, or -1 to wipe). */
export async function revertBalanceChanges(tx: Queryable, ancestor: number): Promise<void> {
  await tx.query("delete from coin_balance_changes where block_number > $1", [ancestor]);
  if (ancestor < 0) {
    await tx.query("delete from address_coin_balances");
    await tx.query("update chain_counters set value = 0 where name = 'coin_balance_sum'");
    return;
  }
  // Current balances set by a reverted block fall back to the address's latest remaining change (or go).
  const gone = await tx.query<{ address: Uint8Array }>(
    `with gone as (delete from address_coin_balances where block_number > $1 returning address, value),
     summed as (${addToSum("-coalesce(sum(value), 0) from gone")})
     select address from gone`,
    [ancestor],
  );
  if (gone.length === 0) return;
  // The counters stage was reverted first: the count it left is the one of the remaining blocks.
  await tx.query(
    `with restored as (
       insert into address_coin_balances (address, value, block_number, transactions_count)
       select g.a, c.value, c.block_number,
         coalesce((select n.transactions_count from address_counters n where n.address = g.a), 0)
       from unnest($1::bytea[]) as g(a)
       cross join lateral (select value, block_number from coin_balance_changes c
         where c.address = g.a order by c.block_number desc limit 1) c
       returning value)
     ${addToSum("coalesce(sum(value), 0) from restored")}`,
    [gone.map((r) => r.address)],
  );
}
