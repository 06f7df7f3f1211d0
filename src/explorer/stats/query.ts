import { indexedBlocks, indexedRange as rangeOfIndex } from "../../chain-store/checkpoint.js";
import type { Queryable } from "../../db/db.js";

/** Chain-wide counters kept by the indexer (chain_counters), by name; absent names are missing from the map. */
export async function chainCounters(db: Queryable): Promise<Map<string, string>> {
  const rows = await db.query<{ name: string; value: string }>(
    "select name, value::text as value from chain_counters",
  );
  return new Map(rows.map((r) => [r.name, r.value]));
}

/**
 * First and last indexed block, and how many blocks are indexed out of the `span` from the first to the newest (fewer
 * while history catches up beside the head): from the checkpoint row, in O(1).
 */
export async function indexedRange(
  db: Queryable,
): Promise<{ start: number; last: number | null; indexed: number; span: number } | null> {
  const r = await rangeOfIndex(db);
  return r && { start: r.startBlock, last: r.lastBlock, ...indexedBlocks(r) };
}

/** Transactions and gas of the blocks of one UTC day (today on /stats): its daily_counters row, zeros without. */
export async function dayTotals(
  db: Queryable,
  day: Date,
): Promise<{ transactions: string; gas_used: string }> {
  const rows = await db.query<{ transactions: string; gas_used: string }>(
    "select transactions::text as transactions, gas_used::text as gas_used from daily_counters where day = $1::date",
    [day.toISOString().slice(0, 10)],
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

/** One block's percentiles of the prices its successful transactions paid (wei, as text; null where none had one). */
export type BlockGasPercentiles = {
  block_number: number;
  slow_price: string | null;
  average_price: string | null;
  fast_price: string | null;
  slow_priority: string | null;
  average_priority: string | null;
  fast_priority: string | null;
};

/** Block numbers the oracle looks back over at most: the newest ones, however many hold no priced transaction. */
export const GAS_ORACLE_SCAN_BLOCKS = 10_000;

/**
 * Per block, the 35th, 60th and 90th percentiles (Blockscout's safelow/average/fast defaults) of the gas price and
 * of the max priority fee of its successful transactions that paid a gas price, for the newest `blocks` blocks
 * holding such transactions among the newest GAS_ORACLE_SCAN_BLOCKS (Blockscout's gas price oracle query). Driven
 * by the blocks: a backward scan of their key, and for each block a probe of the transactions' (block_number,
 * index) key; it stops after `blocks` blocks with an answer, so its cost is those blocks' transactions (and at
 * most GAS_ORACLE_SCAN_BLOCKS empty blocks), whatever the length of the chain.
 */
export async function gasPricePercentiles(db: Queryable, blocks: number): Promise<BlockGasPercentiles[]> {
  return db.query<BlockGasPercentiles>(
    `select g.* from (
       select number from blocks
       where number > (select max(number) from blocks) - $2
       order by number desc
     ) b
     cross join lateral (
       select b.number as block_number,
         percentile_disc(0.35) within group (order by price)::text as slow_price,
         percentile_disc(0.60) within group (order by price)::text as average_price,
         percentile_disc(0.90) within group (order by price)::text as fast_price,
         percentile_disc(0.35) within group (order by prio)::text as slow_priority,
         percentile_disc(0.60) within group (order by prio)::text as average_priority,
         percentile_disc(0.90) within group (order by prio)::text as fast_priority
       from (select coalesce(t.gas_price, t.effective_gas_price) as price, t.max_priority_fee_per_gas as prio
             from transactions t
             where t.block_number = b.number and t.status = 1
               and coalesce(t.gas_price, t.effective_gas_price) > 0) t
       having count(*) > 0
     ) g
     limit $1`,
    [blocks, GAS_ORACLE_SCAN_BLOCKS],
  );
}

/** The newest block's base fee per gas (wei, as text), or null before London or with no block. */
export async function newestBaseFee(db: Queryable): Promise<string | null> {
  const rows = await db.query<{ base_fee: string | null }>(
    "select base_fee_per_gas::text as base_fee from blocks order by number desc limit 1",
  );
  return rows[0]?.base_fee ?? null;
}
