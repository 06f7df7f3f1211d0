import type { IndexerExtension } from "../../pipeline/extension.js";
import { deriveInternalTransactions } from "./derive.js";
import { revertInternalTransactions, writeInternalTransactions } from "./store.js";

/**
 * Every call frame of every transaction, from the call traces `fetchBlock` already brings (callTracer or
 * trace_block). Where the node gives no traces (or TRACES=off) nothing is stored and the block row says
 * `internal_transactions_indexed = false`.
 */
export function internalTransactionsExtension(): IndexerExtension {
  return {
    name: "internal-transactions",
    write: (tx, batch) => writeInternalTransactions(tx, deriveInternalTransactions(batch)),
    revert: revertInternalTransactions,
  };
}
