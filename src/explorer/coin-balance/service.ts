import type { Address } from "viem";
import type { Queryable } from "../../db/db.js";
import { coinBalancePage, dailyCoinBalances, latestCoinBalance } from "./query.js";
import {
  COIN_BALANCE_PAGE_SIZE,
  type CoinBalanceByDayResponse,
  type CoinBalanceHistoryResponse,
  type CoinBalanceSummary,
  coinBalanceByDay,
  coinBalanceHistory,
  coinBalanceSummary,
} from "./view.js";

const lower = (a: string) => a.toLowerCase() as Address;

/** One page of the coin balance history; `beforeBlock` is the `block_number` cursor. */
export async function getCoinBalanceHistory(
  db: Queryable,
  address: string,
  beforeBlock: number | null,
): Promise<CoinBalanceHistoryResponse> {
  // Blockscout answers block_number=0 with an empty page: nothing lies below block 0.
  if (beforeBlock === 0) return { items: [], next_page_params: null };
  const rows = await coinBalancePage(db, lower(address), beforeBlock, COIN_BALANCE_PAGE_SIZE + 1);
  return coinBalanceHistory(rows);
}

/** `coin_balance` and `block_number_balance_updated_at` of the address object; nulls for an unknown address. */
export async function getCoinBalanceSummary(db: Queryable, address: string): Promise<CoinBalanceSummary> {
  return coinBalanceSummary(await latestCoinBalance(db, lower(address)));
}

export const DEFAULT_COIN_BALANCE_HISTORY_DAYS = 10;

/** `COIN_BALANCE_HISTORY_DAYS` as upstream; a missing or malformed value means the default. */
export function coinBalanceHistoryDays(env: Record<string, string | undefined>): number {
  const n = Number(env.COIN_BALANCE_HISTORY_DAYS);
  return Number.isInteger(n) && n > 0 && n <= 3650 ? n : DEFAULT_COIN_BALANCE_HISTORY_DAYS;
}

/** The last balance of each of the last `days` UTC days (today included) on which it changed. */
export async function getCoinBalanceByDay(
  db: Queryable,
  address: string,
  days: number,
  now: Date = new Date(),
): Promise<CoinBalanceByDayResponse> {
  const since = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - (days - 1)));
  const daily = await dailyCoinBalances(db, lower(address), since);
  return coinBalanceByDay(daily, since.toISOString().slice(0, 10), days);
}
