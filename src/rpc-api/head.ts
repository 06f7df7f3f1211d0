import { indexedRange } from "../chain-store/checkpoint.js";
import type { Queryable } from "../db/db.js";

/** The newest indexed block (Blockscout's max consensus block number), null before the first batch. */
export async function indexedHead(db: Queryable): Promise<number | null> {
  return (await indexedRange(db))?.lastBlock ?? null;
}
