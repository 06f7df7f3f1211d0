import type { Queryable } from "../../db/db.js";

export type BlockRow = { number: string; timestamp: Date; miner: Uint8Array };

export async function blockByNumber(db: Queryable, n: number): Promise<BlockRow | null> {
  const [r] = await db.query<BlockRow>("select number, timestamp, miner from blocks where number = $1", [n]);
  return r ?? null;
}

/** A block's rewards by kind (block_rewards: what trace_block reported; empty on nodes without it). */
export function blockRewards(
  db: Queryable,
  n: number,
): Promise<Array<{ address: Uint8Array; type: string; reward: string }>> {
  return db.query(
    "select address, type, reward::text as reward from block_rewards where block_number = $1 order by type, address",
    [n],
  );
}

/** The last block at or before `time`, or the first at or after it (the blocks timestamp index). */
export async function blockAtTime(
  db: Queryable,
  time: Date,
  closest: "before" | "after",
): Promise<number | null> {
  const sql =
    closest === "before"
      ? "select number from blocks where timestamp <= $1 order by timestamp desc, number desc limit 1"
      : "select number from blocks where timestamp >= $1 order by timestamp, number limit 1";
  const [r] = await db.query<{ number: string }>(sql, [time]);
  return r ? Number(r.number) : null;
}

/**
 * The average time between the newest blocks (Blockscout's AverageBlockTime, over up to its last 100), in
 * seconds; null with fewer than two blocks.
 */
export async function averageBlockTime(db: Queryable): Promise<number | null> {
  const [r] = await db.query<{ n: string; first: Date | null; last: Date | null }>(
    `select count(*) as n, min(timestamp) as first, max(timestamp) as last from
       (select timestamp from blocks order by number desc limit 100) b`,
  );
  const n = Number(r?.n ?? 0);
  if (!r?.first || !r.last || n < 2) return null;
  return (r.last.getTime() - r.first.getTime()) / 1000 / (n - 1);
}
