import type { FetchedBlock } from "../../../chain/types.js";
import { toBytea } from "../../../db/bytes.js";
import type { Queryable } from "../../../db/db.js";
import type { IndexerExtension } from "../../pipeline/extension.js";
import { byBlock } from "../balance-changes-by-block.js";
import { balanceChangesOf } from "../stage-data.js";
import type { BalanceChangeRow } from "./derive.js";

/** Adds `delta` (a SQL expression) to the chain's coin balance sum, kept for stats&action=ethsupply. */
const addToSum = (
  delta: string,
) => `insert into chain_counters (name, value) select 'coin_balance_sum', ${delta}
  on conflict (name) do update set value = chain_counters.value + excluded.value`;

/**
 * The upsert of each address's latest balance (`latest`: a select of address, value and block, one row per
 * address), newer blocks winning; the rows' change moves the chain's coin balance sum.
 *
 * Deliberately no CTE of the rows joined to the table or to another CTE: once `address_coin_balances` has
 * statistics the planner estimated such a CTE (13,000 rows) at 200 and rebuilt a hash of it for every written row
 * (55 s for one batch on a million rows, growing with the table). The previous value comes from RETURNING: its
 * subquery runs under the statement's snapshot, which does not see the statement's own writes, so it finds the row
 * as it was before (an index probe per written row, like the conflict check beside it). A read of the previous
 * values by `= any` before the upsert was the alternative; on a million rows the planner answered a batch's 13,000
 * addresses with a sequential scan of the table.
 */
const upsertLatest = (latest: string) => `
  with written as (
    insert into address_coin_balances (address, value, block_number)
    ${latest}
    on conflict (address) do update set value = excluded.value, block_number = excluded.block_number
      where excluded.block_number >= address_coin_balances.block_number
    returning value - coalesce((select p.value from address_coin_balances p
      where p.address = address_coin_balances.address), 0) as change)
  ${addToSum("coalesce(sum(change), 0) from written")}`;

/** A batch's rows, the latest per address picked in memory: $1 addresses, $2 blocks, $3 values. */
const UPSERT_ROWS = upsertLatest(
  "select a, v, n from unnest($1::bytea[], $2::int8[], $3::numeric[]) as x(a, n, v)",
);

/**
 * Committed blocks $1 < block <= $2, the latest change per address read from the stored changes through their
 * block index: the same rows as the batches' own, written once for all of them.
 */
const UPSERT_STORED = upsertLatest(`select distinct on (address) address, value, block_number
    from coin_balance_changes where block_number > $1 and block_number <= $2 and ${byBlock()}
    order by address, block_number desc`);

/** Per address (lower-case), its latest balance change of the batches folded in. */
type Latest = Map<string, BalanceChangeRow>;

/** Adds the batch's balance changes to `into` (a new map when undefined): a later block's change wins. */
function foldLatest(into: Latest | undefined, batch: readonly FetchedBlock[]): Latest {
  const latest: Latest = into ?? new Map();
  for (const r of balanceChangesOf(batch)) {
    const key = r.address.toLowerCase();
    const seen = latest.get(key);
    if (!seen || r.blockNumber >= seen.blockNumber) latest.set(key, r);
  }
  return latest;
}

/**
 * The current balances the latest changes set: a batch's (top accounts; inside the batch transaction), or those
 * of the committed batches a trailing write carries.
 */
async function writeLatest(tx: Queryable, latest: Latest): Promise<void> {
  if (latest.size === 0) return;
  const written = [...latest.values()];
  await tx.query(UPSERT_ROWS, [
    written.map((r) => toBytea(r.address)),
    written.map((r) => r.blockNumber),
    written.map((r) => r.value),
  ]);
}

/** The current balances the stored changes of committed blocks from..to set (several batches at once). */
async function writeStoredCurrentBalances(tx: Queryable, from: number, to: number): Promise<void> {
  await tx.query(UPSERT_STORED, [from - 1, to]);
}

/**
 * Takes back the current balances set above `ancestor` (or -1 to wipe), before the balance changes themselves are
 * deleted (the balances stage is reverted after this one, so its rows above the ancestor are still there).
 */
async function revertCurrentBalances(tx: Queryable, ancestor: number): Promise<void> {
  if (ancestor < 0) {
    await tx.query("delete from address_coin_balances");
    await tx.query("update chain_counters set value = 0 where name = 'coin_balance_sum'");
    return;
  }
  // A current balance is its address's latest change: one set by a reverted block belongs to an address with a
  // change above the ancestor (the table keeps no index on its block: each balance update writes one entry fewer,
  // migration 184). It falls back to the address's latest change at or below the ancestor (or goes).
  const moved = await tx.query<{ address: Uint8Array }>(
    `select distinct address from coin_balance_changes where block_number > $1 and ${byBlock()}`,
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
         where c.address = g.a and c.block_number <= $2 order by c.block_number desc limit 1) c
       returning value)
     ${addToSum("coalesce(sum(value), 0) from restored")}`,
    [gone.map((r) => r.address), ancestor],
  );
}

/**
 * Each address's current coin balance (`address_coin_balances`, the top accounts and Etherscan's `balance`) and the
 * chain's coin balance sum: the latest of the balance changes the balances stage derives, so it is listed after it
 * (and reverted before it, while the reverted changes are still there). A trailing stage: catching up, several
 * batches' latest balances are written at once, an address the batches share once.
 */
export function currentBalancesExtension(): IndexerExtension {
  return {
    id: "current-balances",
    write: (tx, batch) => writeLatest(tx, foldLatest(undefined, batch)),
    trailing: {
      writeStored: writeStoredCurrentBalances,
      carry: {
        needs: ["balances"],
        fold: foldLatest,
        write: (tx, _from, _to, latest: Latest) => writeLatest(tx, latest),
      },
    },
    revert: revertCurrentBalances,
  };
}
