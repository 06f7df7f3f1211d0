import type { Address, Hex } from "viem";
import { toBytea } from "../../db/bytes.js";
import type { Queryable } from "../../db/db.js";

export type WithdrawalRow = {
  block_number: number;
  index: string;
  validator_index: string;
  address: Uint8Array;
  amount: string;
  timestamp: Date;
};

const SELECT = `select w.block_number, w.index::text as index, w.validator_index::text as validator_index, w.address,
  w.amount::text as amount, b.timestamp from withdrawals w join blocks b on b.number = w.block_number`;

/** The indexed block with this number or hash, or null. */
export async function blockNumberOf(db: Queryable, ref: number | Hex): Promise<number | null> {
  const [row] = await db.query<{ number: number }>(
    typeof ref === "number"
      ? "select number from blocks where number = $1"
      : "select number from blocks where hash = $1",
    [typeof ref === "number" ? ref : toBytea(ref)],
  );
  return row ? Number(row.number) : null;
}

/** A block's withdrawals, highest index first, below `beforeIndex` (primary key range). */
export function blockWithdrawalsPage(
  db: Queryable,
  blockNumber: number,
  beforeIndex: bigint | null,
  limit: number,
): Promise<WithdrawalRow[]> {
  return db.query<WithdrawalRow>(
    `${SELECT} where w.block_number = $1 and ($2::numeric is null or w.index < $2) order by w.index desc limit $3`,
    [blockNumber, beforeIndex?.toString() ?? null, limit],
  );
}

/**
 * An address's withdrawals, highest index first, below `beforeIndex`. Indexes grow with blocks, so the cursor's
 * block (withdrawals_index_idx) bounds the backward scan of withdrawals_address_idx.
 */
export function addressWithdrawalsPage(
  db: Queryable,
  address: Address,
  beforeIndex: bigint | null,
  limit: number,
): Promise<WithdrawalRow[]> {
  return db.query<WithdrawalRow>(
    `${SELECT} where w.address = $1
       and ($2::numeric is null or (w.block_number <= (select block_number from withdrawals where index = $2 limit 1)
         and w.index < $2))
     order by w.block_number desc, w.index desc limit $3`,
    [toBytea(address), beforeIndex?.toString() ?? null, limit],
  );
}

/** The chain's withdrawals, highest index first, below `beforeIndex` (withdrawals_index_idx, backward). */
export function withdrawalsPage(
  db: Queryable,
  beforeIndex: bigint | null,
  limit: number,
): Promise<WithdrawalRow[]> {
  return db.query<WithdrawalRow>(
    `${SELECT} where ($1::numeric is null or w.index < $1) order by w.index desc limit $2`,
    [beforeIndex?.toString() ?? null, limit],
  );
}

/** The withdrawals' count and sum (wei), as the counters stage keeps them in chain_counters; 0 before any. */
export async function withdrawalTotals(db: Queryable): Promise<{ count: string; sum: string }> {
  const rows = await db.query<{ name: string; value: string }>(
    "select name, value::text as value from chain_counters where name in ('withdrawals', 'withdrawals_sum')",
  );
  const get = (name: string) => rows.find((r) => r.name === name)?.value ?? "0";
  return { count: get("withdrawals"), sum: get("withdrawals_sum") };
}
