/** Blockscout's chart_data of the transactions chart: every day asked for, 0 where no block fell on it. */
export function transactionsChartView(
  days: readonly string[],
  counts: ReadonlyArray<{ day: string; transactions: number }>,
) {
  const byDay = new Map(counts.map((c) => [c.day, c.transactions]));
  return { chart_data: days.map((date) => ({ date, transactions_count: byDay.get(date) ?? 0 })) };
}
