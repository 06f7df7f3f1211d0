import type { Queryable } from "../../db/db.js";

/** Transactions per UTC day of the blocks in [from, to): a range of blocks_timestamp_idx, one row per day. */
export async function dailyTransactions(
  db: Queryable,
  from: Date,
  to: Date,
): Promise<Array<{ day: string; transactions: number }>> {
  const rows = await db.query<{ day: string; transactions: string }>(
    `select to_char(timestamp at time zone 'UTC', 'YYYY-MM-DD') as day, sum(transaction_count)::text as transactions
     from blocks where timestamp >= $1 and timestamp < $2 group by 1`,
    [from, to],
  );
  return rows.map((r) => ({ day: r.day, transactions: Number(r.transactions) }));
}

/** The time of the first indexed block (days before it are unknown, not empty), or null before any. */
export async function firstBlockTime(db: Queryable): Promise<Date | null> {
  const [row] = await db.query<{ timestamp: Date }>("select timestamp from blocks order by number limit 1");
  return row?.timestamp ?? null;
}
