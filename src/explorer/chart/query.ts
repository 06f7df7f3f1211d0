import type { Queryable } from "../../db/db.js";

/** Transactions per UTC day in [from, to) as the counters stage keeps them (daily_counters: a row per day). */
export async function dailyTransactions(
  db: Queryable,
  from: Date,
  to: Date,
): Promise<Array<{ day: string; transactions: number }>> {
  const rows = await db.query<{ day: string; transactions: number }>(
    `select day::text as day, transactions from daily_counters where day >= $1::date and day < $2::date`,
    [from.toISOString().slice(0, 10), to.toISOString().slice(0, 10)],
  );
  return rows.map((r) => ({ day: r.day, transactions: Number(r.transactions) }));
}

/** The time of the first indexed block (days before it are unknown, not empty), or null before any. */
export async function firstBlockTime(db: Queryable): Promise<Date | null> {
  const [row] = await db.query<{ timestamp: Date }>("select timestamp from blocks order by number limit 1");
  return row?.timestamp ?? null;
}
