import type { IndexerExtension } from "../../pipeline/extension.js";
import { deriveCoreRows } from "./derive.js";
import { revertCoreRows, writeCoreRows } from "./store.js";

/**
 * Blocks, transactions, logs and contract creations: the first stage, written before (and undone after) every
 * stage that reads them.
 */
export function coreRowsExtension(): IndexerExtension {
  return {
    name: "core",
    async write(tx, batch) {
      await writeCoreRows(tx, deriveCoreRows(batch));
    },
    revert: revertCoreRows,
  };
}
