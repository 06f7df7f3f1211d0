import { toBytea } from "../../../db/bytes.js";
import { unixCopyText } from "../../../db/copy-text.js";
import type { Queryable } from "../../../db/db.js";
import { byBlock } from "../balance-changes-by-block.js";
import { bulkInsert } from "../core/bulk-insert.js";
import type { BalanceChangeRow } from "./derive.js";

/** Adds `delta` (a SQL expression) to the chain's coin balance sum, kept for stats&action=ethsupply. */
const addToSum = (
  delta: string,
) => `insert into chain_counters (name, value) select 'coin_balance_sum', ${delta}
  on conflict (name) do update set value = chain_counters.value + excluded.value`;

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
    copy: unixCopyText,
  },
]);

/** The rows' COPY text (built ahead of the batch transaction). */
export const encodeBalanceChanges = (rows: readonly BalanceChangeRow[]): string => insertChanges.encode(rows);

/**
 * Inserts one batch of balance changes and the current balances they set (inside the batch transaction); `text`:
 * the rows' COPY text built ahead (encodeBalanceChanges), else built now.
 */
export async function writeBalanceChanges(
  tx: Queryable,
  rows: readonly BalanceChangeRow[],
  text?: string,
): Promise<void> {
  if (rows.length === 0) return;
  if (text === undefined) await insertChanges(tx, rows);
  else await insertChanges.writeEncoded(tx, rows, text);
  await writeCurrentBalances(tx, rows);
}

/**
 * The current balance (top accounts): each address's row of its latest block in the batch, newer blocks win; the
 * rows' change moves the chain's coin balance sum. (The list's count orders read the count from address_counters:
 * migration 153.)
 *
 * Deliberately no CTE of the batch joined to the table or to another CTE: once `address_coin_balances` has
 * statistics the planner estimated such a CTE (13,000 rows) at 200 and rebuilt a hash of it for every written row
 * (55 s for one batch on a million rows, growing with the table). The latest row per address is picked in memory,
 * and the previous value comes from RETURNING: its subquery runs under the statement's snapshot, which does not see
 * the statement's own writes, so it finds the row as it was before (an index probe per written row, like the
 * conflict check beside it). A read of the previous values by `= any` before the upsert was the alternative; on a
 * million rows the planner answered a batch's 13,000 addresses with a sequential scan of the table.
 */
async function writeCurrentBalances(tx: Queryable, rows: readonly BalanceChangeRow[]): Promise<void> {
  const latest = new Map<string, BalanceChangeRow>();
  for (const r of rows) {
    const key = r.address.toLowerCase();
    const seen = latest.get(key);
    if (!seen || r.blockNumber >= seen.blockNumber) latest.set(key, r);
  }
  const written = [...latest.values()];
  await tx.query(
    `with written as (
       insert into address_coin_balances (address, value, block_number)
       select a, v, n
       from unnest($1::bytea[], $2::int8[], $3::numeric[]) as x(a, n, v)
       on conflict (address) do update set value = excluded.value, block_number = excluded.block_number
         where excluded.block_number >= address_coin_balances.block_number
       returning value - coalesce((select p.value from address_coin_balances p
         where p.address = address_coin_balances.address), 0) as change)
     ${addToSum("coalesce(sum(change), 0) from written")}`,
    [written.map((r) => toBytea(r.address)), written.map((r) => r.blockNumber), written.map((r) => r.value)],
  );
}

/** Deletes the changes of every block above `ancestor` (reorganisation, or -1 to wipe). */
export async function revertBalanceChanges(tx: Queryable, ancestor: number): Promise<void> {
  if (ancestor < 0) {
    await tx.query(`delete from coin_balance_changes where block_number > $1 and ${byBlock()}`, [ancestor]);
    await tx.query("delete from address_coin_balances");
    await tx.query("update chain_counters set value = 0 where name = 'coin_balance_sum'");
    return;
  }
  // A current balance is its address's latest change: one set by a reverted block belongs to an address the delete
  // returns (found by primary key, so the table keeps no index on its block: each balance update writes one entry
  // fewer, migration 184). It falls back to the address's latest remaining change (or goes).
  const moved = await tx.query<{ address: Uint8Array }>(
    `with moved as (delete from coin_balance_changes where block_number > $1 and ${byBlock()} returning address)
     select distinct address from moved`,
    [ancestor],
  );
  if (moved.length === 0) return;
  const gone = await tx.query<{ address: Uint8Array }>(
    `with gone as (delete from address_coin_balances
       where address = any($2::bytea[]) and block_number > $1 returning address, value),
     summed as (${addToSum("-coalesce(sum(value), 0) from gone")})
     select address from gone`,
    [ancestor, moved.map((r) => r.address)],
  );
  if (gone.length === 0) return;
  await tx.query(
    `with restored as (
       insert into address_coin_balances (address, value, block_number)
       select g.a, c.value, c.block_number
       from unnest($1::bytea[]) as g(a)
       cross join lateral (select value, block_number from coin_balance_changes c
         where c.address = g.a order by c.block_number desc limit 1) c
       returning value)
     ${addToSum("coalesce(sum(value), 0) from restored")}`,
    [gone.map((r) => r.address)],
  );
}
