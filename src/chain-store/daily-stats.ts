/**
 * The per-day sums of `daily_stats` (migrations 170, 171) beside its `day` key: the stats stage writes each of them, the
 * stats service reads them. `blocks` is the stage's own count of the day's blocks (a day left with none is deleted).
 */
export const DAILY_STATS_COLUMNS = [
  "blocks",
  "successful_transactions",
  "operational_transactions",
  "gas_limit",
  "gas_price_sum",
  "priced_transactions",
  "block_size",
  "sized_blocks",
  "native_transfers",
  "contracts",
  "authorizations",
  "rewards",
  "rewarded_blocks",
  "new_accounts",
  "active_accounts",
  "supply_change",
  "holders_change",
] as const;
