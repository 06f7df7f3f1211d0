import type { IndexerExtension } from "../../pipeline/extension.js";
import { deriveOpRows } from "./derive.js";
import { insertOpTransactions, revertOpTransactions } from "./store.js";

/**
 * OP-stack deposits (source hash, mint, system flag) and receipts' L1 fee members, from the block and receipts the
 * core stage fetched (no extra call). On a chain of another family nothing is written.
 */
export function opStackExtension(): IndexerExtension {
  return {
    id: "op-stack",
    write: (tx, batch, ctx) =>
      insertOpTransactions(tx, deriveOpRows(batch, ctx.caps.chainType === "optimism")),
    revert: revertOpTransactions,
  };
}
