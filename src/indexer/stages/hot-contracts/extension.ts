import type { IndexerExtension } from "../../pipeline/extension.js";
import { ADD_HOT_CONTRACTS, DROP_OLD_MINUTES, SUBTRACT_HOT_CONTRACTS } from "./sql.js";

/** Above any block number: the open end of a reorg's range. */
const END = Number.MAX_SAFE_INTEGER;

/** Minute slots kept behind a batch's newest block: the 3 h scale and an hour of margin. */
const KEPT_MINUTES = 240;

/**
 * `hot_contracts` (migration 165): per recipient its transactions and gas used per minute and per UTC day, for
 * `/api/v2/stats/hot-smart-contracts`. Two statements a batch (add, drop minute slots out of every scale), one a
 * reorg; it reads the batch's transactions, so it is listed after the core stage (and reverted before it).
 */
export function hotContractsExtension(): IndexerExtension {
  return {
    id: "hot-contracts",
    async write(tx, batch) {
      if (!batch.length) return;
      const from = Number(batch[0]!.block.number);
      const last = batch[batch.length - 1]!.block;
      await tx.query(ADD_HOT_CONTRACTS, [from - 1, Number(last.number)]);
      await tx.query(DROP_OLD_MINUTES, [Math.floor(Number(BigInt(last.timestamp)) / 60) - KEPT_MINUTES]);
    },
    async revert(tx, ancestor) {
      await tx.query(SUBTRACT_HOT_CONTRACTS, [ancestor, END]);
    },
  };
}
