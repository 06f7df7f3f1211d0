import type { Queryable } from "../../db/db.js";

/**
 * The sum of every coin balance (Blockscout's AddressesCoinBalanceSum), as the balances stage keeps it, optionally
 * less the zero address's balance (its "minus burnt" sum): a counter and a primary-key read, no scan.
 */
export async function coinBalanceSum(db: Queryable, minusBurnt: boolean): Promise<string> {
  const [r] = await db.query<{ sum: string }>(
    `select (coalesce((select value from chain_counters where name = 'coin_balance_sum'), 0)
       - ${minusBurnt ? "coalesce((select value from address_coin_balances where address = '\\x0000000000000000000000000000000000000000'::bytea), 0)" : "0"})::text as sum`,
  );
  return r?.sum ?? "0";
}

/** The fees paid in the blocks of one UTC day (daily_counters), null when no block that day. */
export async function feesOfDay(db: Queryable, day: Date): Promise<string | null> {
  const [r] = await db.query<{ fees: string }>(
    "select fees::text as fees from daily_counters where day = $1::date",
    [day.toISOString().slice(0, 10)],
  );
  return r?.fees ?? null;
}
