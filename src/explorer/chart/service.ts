import type { ExplorerDeps } from "../deps.js";
import { dailyTransactions, firstBlockTime } from "./query.js";
import { transactionsChartView } from "./view.js";

/** Blockscout's TransactionHistoryChartController history_size: days before yesterday. */
const HISTORY_DAYS = 30;
const DAY_MS = 86_400_000;

/**
 * `/stats/charts/transactions`: yesterday and the 30 days before it (today is not over), newest first, as
 * Blockscout reads its daily transaction stats. Days before the first indexed block are left out.
 */
export async function transactionsChart(deps: ExplorerDeps, now = new Date()) {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const first = await firstBlockTime(deps.db);
  if (!first) return transactionsChartView([], []);
  const firstDay = Date.UTC(first.getUTCFullYear(), first.getUTCMonth(), first.getUTCDate());
  const earliest = Math.max(today - (HISTORY_DAYS + 1) * DAY_MS, firstDay);
  const days: string[] = [];
  for (let d = today - DAY_MS; d >= earliest; d -= DAY_MS) days.push(new Date(d).toISOString().slice(0, 10));
  const counts = days.length ? await dailyTransactions(deps.db, new Date(earliest), new Date(today)) : [];
  return transactionsChartView(days, counts);
}

/**
 * `/stats/charts/market`: Lookout has no price source, so no market history; the supply is Blockscout's value
 * without an exchange rate (0).
 */
export function marketChart() {
  return { chart_data: [], available_supply: 0 };
}
