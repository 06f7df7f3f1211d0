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
  gas_prices: null;
  gas_prices_update_in: number;
  gas_price_updated_at: null;
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
    // No gas price oracle: the frontend hides the gas tracker when gas_prices is null.
    gas_prices: null,
    gas_prices_update_in: 0,
    gas_price_updated_at: null,
    static_gas_price: null,
    market_cap: "0",
    tvl: null,
    network_utilization_percentage: limit === 0n ? 0 : Number((used * 10n ** 18n) / limit) / 1e16,
  };
}

/** Blockscout's IndexingStatus. Lookout indexes contiguously from its start block, internal frames with each block. */
export type IndexingStatus = {
  finished_indexing: boolean;
  finished_indexing_blocks: boolean;
  indexed_blocks_ratio: string;
  indexed_internal_transactions_ratio: string;
};

export function indexingStatusView(caughtUp: boolean, anyBlock: boolean): IndexingStatus {
  const ratio = anyBlock ? "1.00" : "0.00";
  return {
    finished_indexing: caughtUp && anyBlock,
    finished_indexing_blocks: caughtUp && anyBlock,
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
