import { usecTimestamp } from "../timestamp.js";
import type { BlockGasPercentiles } from "./query.js";

/** Blockscout's /stats object (StatsController.stats), without market data (no exchange-rate source). */
export type HomeStats = {
  total_blocks: string;
  total_addresses: string;
  total_transactions: string;
  average_block_time: number;
  coin_image: null;
  secondary_coin_image: null;
  coin_price: null;
  coin_price_change_percentage: null;
  secondary_coin_price: null;
  total_gas_used: string;
  transactions_today: string;
  gas_used_today: string;
  gas_prices: GasPrices | null;
  gas_prices_update_in: number;
  gas_price_updated_at: string | null;
  static_gas_price: null;
  market_cap: string;
  tvl: null;
  network_utilization_percentage: number;
};

export type StatsFacts = {
  counters: ReadonlyMap<string, string>;
  indexedBlocks: number;
  averageBlockTimeMs: number;
  today: { transactions: string; gas_used: string };
  recentGas: { gas_used: string; gas_limit: string };
  /** The gas price oracle's last answer and when it was computed (null: never computed). */
  gas?: { prices: GasPrices; updatedAt: Date; updateInMs: number } | null;
};

/** Pure. */
export function statsView(f: StatsFacts): HomeStats {
  const used = BigInt(f.recentGas.gas_used);
  const limit = BigInt(f.recentGas.gas_limit);
  return {
    total_blocks: String(f.indexedBlocks),
    total_addresses: f.counters.get("addresses") ?? "0",
    total_transactions: f.counters.get("transactions") ?? "0",
    average_block_time: f.averageBlockTimeMs,
    coin_image: null,
    secondary_coin_image: null,
    coin_price: null,
    coin_price_change_percentage: null,
    secondary_coin_price: null,
    total_gas_used: f.counters.get("gas_used") ?? "0",
    transactions_today: f.today.transactions,
    gas_used_today: f.today.gas_used,
    gas_prices: f.gas?.prices ?? null,
    gas_prices_update_in: f.gas?.updateInMs ?? 0,
    gas_price_updated_at: f.gas ? usecTimestamp(f.gas.updatedAt) : null,
    static_gas_price: null,
    market_cap: "0",
    tvl: null,
    network_utilization_percentage: limit === 0n ? 0 : Number((used * 10n ** 18n) / limit) / 1e16,
  };
}

/**
 * Blockscout's IndexingStatus: `indexed_blocks_ratio` is the blocks indexed over those from the first block to the
 * newest indexed one (below 1 while history catches up beside the head), floored to two decimals so it shows 1.00
 * only when complete; `finished_indexing_blocks` when it is complete and the indexer has reached the head. Lookout
 * stores call frames with their blocks: internal transactions have the same ratio.
 */
export type IndexingStatus = {
  finished_indexing: boolean;
  finished_indexing_blocks: boolean;
  indexed_blocks_ratio: string;
  indexed_internal_transactions_ratio: string;
};

export function indexingStatusView(
  caughtUp: boolean,
  blocks: { indexed: number; span: number },
): IndexingStatus {
  const complete = blocks.indexed > 0 && blocks.indexed >= blocks.span;
  const ratio = complete
    ? "1.00"
    : (Math.min(99, Math.floor((blocks.indexed / Math.max(1, blocks.span)) * 100)) / 100).toFixed(2);
  const finished = caughtUp && complete;
  return {
    finished_indexing: finished,
    finished_indexing_blocks: finished,
    indexed_blocks_ratio: ratio,
    indexed_internal_transactions_ratio: ratio,
  };
}

/** The frontend's TransactionsStats (Blockscout's TransactionView "stats.json"). */
export type TransactionsStats = {
  pending_transactions_count: string;
  transactions_count_24h: string;
  transaction_fees_sum_24h: string;
  transaction_fees_avg_24h: string;
};

export function transactionsStatsView(day: {
  count: string;
  fee_sum: string;
  fee_avg: string;
}): TransactionsStats {
  return {
    // Lookout indexes blocks, not the mempool: nothing is pending.
    pending_transactions_count: "0",
    transactions_count_24h: day.count,
    transaction_fees_sum_24h: day.fee_sum,
    transaction_fees_avg_24h: day.fee_avg,
  };
}

/** The frontend's GasPriceInfo: prices in gwei, time in ms; no fiat price (Lookout has no exchange rate). */
export type GasPriceInfo = {
  price: number | null;
  time: number | null;
  fiat_price: string | null;
  base_fee: number | null;
  priority_fee: number | null;
};

export type GasPrices = {
  slow: GasPriceInfo | null;
  average: GasPriceInfo | null;
  fast: GasPriceInfo | null;
};

const LEVELS = ["slow", "average", "fast"] as const;

/** Wei as gwei rounded up to two decimals (Blockscout's format_wei); `count` divides first (a mean, exactly). */
function gwei(sum: bigint, count = 1n): number {
  const unit = count * 10_000_000n; // 0.01 gwei
  return Number((sum + unit - 1n) / unit) / 100;
}

/** The mean of the present values, as its sum and count; null when none is present. */
function mean(values: ReadonlyArray<string | null>): { sum: bigint; count: bigint } | null {
  let sum = 0n;
  let count = 0n;
  for (const v of values) {
    if (v === null) continue;
    sum += BigInt(v);
    count++;
  }
  return count === 0n ? null : { sum, count };
}

/**
 * Blockscout's gas price oracle from per-block percentiles (newest blocks first): each level is the mean over the
 * blocks of that block's percentile. When every level has a priority fee and the chain has a base fee, a level's
 * price is its priority fee plus the base fee; otherwise its gas price. `time` is the average block time: Lookout
 * sees no mempool, so it has no first-seen times (Blockscout falls back to the same). Pure.
 */
export function gasPricesView(
  blocks: readonly BlockGasPercentiles[],
  baseFee: string | null,
  averageBlockTimeMs: number,
): GasPrices {
  if (blocks.length === 0) return { slow: null, average: null, fast: null };
  const prices = LEVELS.map((l) => mean(blocks.map((b) => b[`${l}_price`])));
  const priorities = LEVELS.map((l) => mean(blocks.map((b) => b[`${l}_priority`])));
  const withBase = baseFee !== null && priorities.every((p) => p !== null);
  const base = baseFee === null ? null : BigInt(baseFee);
  const info = (i: number): GasPriceInfo | null => {
    const p = priorities[i]!;
    const g = prices[i]!;
    if (withBase && p) {
      // priority (a mean) + base fee, over the same divisor.
      return {
        price: gwei(p.sum + base! * p.count, p.count),
        time: averageBlockTimeMs || null,
        fiat_price: null,
        base_fee: gwei(base!),
        priority_fee: gwei(p.sum, p.count),
      };
    }
    if (!g) return null;
    return {
      price: gwei(g.sum, g.count),
      time: averageBlockTimeMs || null,
      fiat_price: null,
      base_fee: base === null ? null : gwei(base),
      priority_fee: null,
    };
  };
  return { slow: info(0), average: info(1), fast: info(2) };
}
