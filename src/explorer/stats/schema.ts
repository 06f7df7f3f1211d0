import { Type } from "@sinclair/typebox";
import { OrNull } from "../objects/address-schema.js";

/** GasPriceInfo (stats.ts): gwei, milliseconds. */
const GasPriceInfoSchema = Type.Object({
  fiat_price: OrNull(Type.String()),
  price: OrNull(Type.Number()),
  time: OrNull(Type.Number()),
  base_fee: OrNull(Type.Number()),
  priority_fee: OrNull(Type.Number()),
});

/** The frontend's HomeStats (stats.ts, v2.0.3). */
export const HomeStatsSchema = Type.Object({
  total_blocks: Type.String(),
  total_addresses: Type.String(),
  total_transactions: Type.String(),
  average_block_time: Type.Number(),
  coin_price: OrNull(Type.String()),
  coin_price_change_percentage: OrNull(Type.Number()),
  total_gas_used: Type.String(),
  transactions_today: OrNull(Type.String()),
  gas_used_today: Type.String(),
  gas_prices: OrNull(
    Type.Object({
      slow: OrNull(GasPriceInfoSchema),
      average: OrNull(GasPriceInfoSchema),
      fast: OrNull(GasPriceInfoSchema),
    }),
  ),
  gas_price_updated_at: OrNull(Type.String()),
  gas_prices_update_in: Type.Number(),
  static_gas_price: OrNull(Type.String()),
  market_cap: OrNull(Type.String()),
  network_utilization_percentage: Type.Number(),
  tvl: OrNull(Type.String()),
});

/** IndexingStatus (indexingStatus.ts). */
export const IndexingStatusSchema = Type.Object({
  finished_indexing: Type.Boolean(),
  finished_indexing_blocks: Type.Boolean(),
  indexed_blocks_ratio: Type.String(),
  indexed_internal_transactions_ratio: Type.String(),
});

/** BackendVersionConfig (configs.ts). */
export const BackendVersionSchema = Type.Object({ backend_version: Type.String() });

/** `/transactions/stats` (view.ts TransactionsStats). */
export const TransactionsStatsSchema = Type.Object({
  pending_transactions_count: Type.String(),
  transactions_count_24h: Type.String(),
  transaction_fees_sum_24h: Type.String(),
  transaction_fees_avg_24h: Type.String(),
});
