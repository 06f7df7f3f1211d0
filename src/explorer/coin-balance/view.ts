import type { Hash } from "viem";
import { fromByteaOrNull } from "../../db/bytes.js";
import { splitPage } from "../paging.js";
import { usecTimestamp } from "../timestamp.js";
import type { CoinBalanceRow, DailyRow } from "./query.js";

/** Blockscout's coin balance history item (frontend type `AddressCoinBalanceHistoryItem`). */
export type CoinBalanceItem = {
  block_number: number;
  block_timestamp: string;
  delta: string;
  transaction_hash: Hash | null;
  value: string;
};

export type CoinBalancePageParams = { block_number: number; items_count: number };

export type CoinBalanceHistoryResponse = {
  items: CoinBalanceItem[];
  next_page_params: CoinBalancePageParams | null;
};

export const COIN_BALANCE_PAGE_SIZE = 50;

/** Exact block time as ISO 8601 UTC with microseconds, as Blockscout renders it: `2022-08-02T07:18:05.000000Z`. */
export const blockTimestamp = usecTimestamp;

export function coinBalanceItem(r: CoinBalanceRow): CoinBalanceItem {
  return {
    block_number: r.block_number,
    block_timestamp: blockTimestamp(r.block_timestamp),
    delta: r.delta,
    transaction_hash: fromByteaOrNull(r.transaction_hash) as Hash | null,
    value: r.value,
  };
}

/**
 * A page from up to `pageSize + 1` rows: the extra row only tells that another page exists; the cursor is the
 * last returned item's block and `items_count` this page's item count (Blockscout 9.x).
 */
export function coinBalanceHistory(
  rows: readonly CoinBalanceRow[],
  pageSize = COIN_BALANCE_PAGE_SIZE,
): CoinBalanceHistoryResponse {
  const p = splitPage(rows, (last) => ({ block_number: last.block_number }), {}, pageSize);
  return { items: p.rows.map(coinBalanceItem), next_page_params: p.next_page_params };
}

export type CoinBalanceByDayResponse = { items: Array<{ date: string; value: string }>; days: number };

/**
 * The by-day chart: the last balance of each day with a change, ascending; the balance carried into the window
 * stands for the window's first day when that day has no change of its own, so the chart starts at the right
 * level instead of at the first change.
 */
export function coinBalanceByDay(
  daily: { days: readonly DailyRow[]; carried: string | null },
  firstDay: string,
  days: number,
): CoinBalanceByDayResponse {
  const items = daily.days.map((d) => ({ date: d.day, value: d.value }));
  if (daily.carried !== null && items[0]?.date !== firstDay)
    items.unshift({ date: firstDay, value: daily.carried });
  return { items, days };
}

/** The balance fields of the address object (`GET /api/v2/addresses/{hash}`). */
export type CoinBalanceSummary = {
  coin_balance: string | null;
  block_number_balance_updated_at: number | null;
};

export function coinBalanceSummary(
  latest: { value: string; block_number: number } | null,
): CoinBalanceSummary {
  return {
    coin_balance: latest?.value ?? null,
    block_number_balance_updated_at: latest?.block_number ?? null,
  };
}
