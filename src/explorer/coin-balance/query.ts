import type { Address } from "viem";
import { INDEXED_FROM_GENESIS_SQL } from "../../chain-store/checkpoint.js";
import { toBytea } from "../../db/bytes.js";
import type { Queryable } from "../../db/db.js";

/** A stored balance change as both drivers return it. */
export type CoinBalanceRow = {
  block_number: number;
  value: string;
  delta: string;
  transaction_hash: Uint8Array | null;
  block_timestamp: Date;
};

/** The page statement (also EXPLAINed by bench:api); served by the primary key (address, block_number) alone. */
export const COIN_BALANCE_PAGE_SQL = `select block_number, value, delta, transaction_hash, block_timestamp
  from coin_balance_changes
  where address = $1 and block_number < $2
  order by address desc, block_number desc
  limit $3`;

// Above every real height; lets the first page use the same statement (and plan) as every other page.
const NO_CURSOR = Number.MAX_SAFE_INTEGER;

/**
 * One page of an address's balance changes, newest first, strictly below `beforeBlock`: a backward range scan
 * of the primary key (address, block_number) that stops after `limit` rows, so its cost does not depend on the
 * history's length or on the cursor's depth.
 */
export function coinBalancePage(
  db: Queryable,
  address: Address,
  beforeBlock: number | null,
  limit: number,
): Promise<CoinBalanceRow[]> {
  return db.query<CoinBalanceRow>(COIN_BALANCE_PAGE_SQL, [toBytea(address), beforeBlock ?? NO_CURSOR, limit]);
}

/** The newest change of an address: its current balance and the block that set it. */
export async function latestCoinBalance(
  db: Queryable,
  address: Address,
): Promise<{ value: string; block_number: number } | null> {
  // Blockscout stores the balance of every address a block touches, 0 included. Lookout records changes only:
  // an address the index has seen (`addresses`) without a change holds 0 since its first block, when the index
  // starts at genesis (a later start leaves a balance from before it unknown: null).
  const [row] = await db.query<{ value: string; block_number: number }>(
    `select value::text, block_number from (
       select value, block_number from coin_balance_changes
       where address = $1 order by address desc, block_number desc limit 1) c
     union all
     select '0', a.first_block from addresses a
     where a.address = $1
       and not exists (select 1 from coin_balance_changes where address = $1)
       and ${INDEXED_FROM_GENESIS_SQL}`,
    [toBytea(address)],
  );
  return row ?? null;
}

export type DailyRow = { day: string; value: string };

/**
 * The balance at the end of each UTC day since `since` on which it changed, plus the balance carried into the
 * window (the last change before it) as `carried`. Heights and block times grow together, so the rows of the
 * window are the newest ones: both scans walk the primary key backwards and stop at the window's start, and
 * cost grows with the changes inside the window only.
 */
export async function dailyCoinBalances(
  db: Queryable,
  address: Address,
  since: Date,
): Promise<{ days: DailyRow[]; carried: string | null }> {
  const a = toBytea(address);
  const [boundary] = await db.query<{ block_number: number; value: string }>(
    `select block_number, value from coin_balance_changes
     where address = $1 and block_timestamp < $2
     order by address desc, block_number desc limit 1`,
    [a, since],
  );
  const days = await db.query<DailyRow>(
    `select distinct on (day) day, value from (
       select to_char(block_timestamp at time zone 'UTC', 'YYYY-MM-DD') as day, value, block_number
       from coin_balance_changes
       where address = $1 and block_number > $2
     ) x
     order by day, block_number desc`,
    [a, boundary?.block_number ?? -1],
  );
  return { days, carried: boundary?.value ?? null };
}
