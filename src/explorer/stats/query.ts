import type { Queryable } from "../../db/db.js";

/** Chain-wide counters kept by the indexer (chain_counters), by name; absent names are missing from the map. */
export async function chainCounters(db: Queryable): Promise<Map<string, string>> {
  const rows = await db.query<{ name: string; value: string }>(
    "select name, value::text as value from chain_counters",
  );
  return new Map(rows.map((r) => [r.name, r.value]));
}

/** First and last indexed block: the index is contiguous from the start block, so this is its size in O(1). */
export async function indexedRange(db: Queryable): Promise<{ start: number; last: number | null } | null> {
  const rows = await db.query<{ start_block: number; last_block: number | null }>(
    "select start_block, last_block from indexer_state where id = 1",
  );
  return rows[0] ? { start: rows[0].start_block, last: rows[0].last_block } : null;
}

/**
 * Transactions and gas of the blocks since `since` (today 00:00 UTC): a backward scan of the newest blocks that
 * stops at the first older one, so its cost is one day of blocks, whatever the chain's length.
 */
export async function sinceTotals(
  db: Queryable,
  since: Date,
): Promise<{ transactions: string; gas_used: string }> {
  const rows = await db.query<{ transactions: string; gas_used: string }>(
    `with recursive day(number, timestamp, transaction_count, gas_used) as (
       (select number, timestamp, transaction_count, gas_used from blocks order by number desc limit 1)
       union all
       (select b.number, b.timestamp, b.transaction_count, b.gas_used from day d
          join blocks b on b.number = d.number - 1 where d.timestamp >= $1)
     )
     select coalesce(sum(transaction_count), 0)::text as transactions, coalesce(sum(gas_used), 0)::text as gas_used
     from day where timestamp >= $1`,
    [since],
  );
  return rows[0] ?? { transactions: "0", gas_used: "0" };
}

/** Gas used and gas limit summed over the newest 50 blocks (network utilisation, as Blockscout's list_blocks). */
export async function recentGas(db: Queryable): Promise<{ gas_used: string; gas_limit: string }> {
  const rows = await db.query<{ gas_used: string; gas_limit: string }>(
    `select coalesce(sum(gas_used), 0)::text as gas_used, coalesce(sum(gas_limit), 0)::text as gas_limit
     from (select gas_used, gas_limit from blocks order by number desc limit 50) b`,
  );
  return rows[0] ?? { gas_used: "0", gas_limit: "0" };
}

/**
 * Count and fees (effective price × gas used; integer sum and rounded mean, as Blockscout's numeric counters) of
 * the transactions of the blocks since `since`: the window's first block is one probe of the timestamp index,
 * its transactions one range of the (block_number, index) key, so the cost is one day of transactions.
 */
export async function transactionsSince(
  db: Queryable,
  since: Date,
): Promise<{ count: string; fee_sum: string; fee_avg: string }> {
  const rows = await db.query<{ count: string; fee_sum: string; fee_avg: string }>(
    `with first as (select number from blocks where timestamp >= $1 order by timestamp, number limit 1),
     fees as (
       select coalesce(t.effective_gas_price, t.gas_price, 0) * t.gas_used as fee
       from transactions t where t.block_number >= (select number from first)
     )
     select count(*)::text as count, coalesce(sum(fee), 0)::text as fee_sum,
       coalesce(round(avg(fee)), 0)::text as fee_avg
     from fees`,
    [since],
  );
  return rows[0] ?? { count: "0", fee_sum: "0", fee_avg: "0" };
}
