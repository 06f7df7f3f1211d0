import type { Queryable } from "../../db/db.js";

/**
 * The sum of every positive coin balance (Blockscout's AddressesCoinBalanceSum), optionally leaving out the zero
 * address (its "minus burnt" sum). A scan of address_coin_balances: Blockscout serves it from a cache.
 */
export async function coinBalanceSum(db: Queryable, minusBurnt: boolean): Promise<string> {
  const [r] = await db.query<{ sum: string | null }>(
    `select sum(value)::text as sum from address_coin_balances where value > 0
     ${minusBurnt ? "and address <> '\\x0000000000000000000000000000000000000000'::bytea" : ""}`,
  );
  return r?.sum ?? "0";
}

/** The fees paid in the blocks of one UTC day (the blocks timestamp index), null when no block that day. */
export async function feesOfDay(db: Queryable, day: Date): Promise<string | null> {
  const [r] = await db.query<{ sum: string | null }>(
    `select sum(transaction_fees)::text as sum from blocks where timestamp >= $1 and timestamp < $1 + interval '1 day'`,
    [day],
  );
  return r?.sum ?? null;
}
