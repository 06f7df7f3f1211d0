import type { Queryable } from "../../db/db.js";
import { headBlockNumber, knownBlockTimeMs } from "../transaction/query.js";
import { type BlockCountdown, countdownView } from "./view.js";

export type CountdownAnswer =
  | { ok: BlockCountdown }
  | { status: 404 | 422; message: "Block number already mined" | "Chain is indexing now, try again later" };

/**
 * Blocks and estimated seconds until `target` (BlockController.block_countdown): 422 while fewer than two blocks are
 * indexed, 404 for a block already mined.
 */
export async function blockCountdown(db: Queryable, target: number): Promise<CountdownAnswer> {
  const [head, average] = await Promise.all([headBlockNumber(db), knownBlockTimeMs(db)]);
  // Blocks mined within one second (a dev node) average 0 s: a known estimate of 0, not "indexing".
  if (head === null || average === null)
    return { status: 422, message: "Chain is indexing now, try again later" };
  if (target - head <= 0) return { status: 404, message: "Block number already mined" };
  return { ok: countdownView(Number(head), target, average) };
}
