import type { Logger } from "../../../util/logger.js";
import type { IndexerExtension } from "../../pipeline/extension.js";
import { deriveTokenRows } from "./derive.js";
import { revertTokenRows, writeTokenRows } from "./store.js";

export type TokensExtensionStats = { transfers: number; malformed: number };

/**
 * Token transfers and current holdings, written in the block transaction (so a crash or a reorg never leaves
 * holdings out of step with the checkpoint). `onCommit` wakes the background fetchers (properties, metadata);
 * `onRpc` hands them the node the indexer uses, on the first batch.
 */
export function createTokensExtension(
  o: {
    logger?: Logger;
    onCommit?: (lastBlock: number) => void;
    onRpc?: (rpc: import("../../../chain/rpc.js").Rpc) => void;
  } = {},
): IndexerExtension & { stats: TokensExtensionStats } {
  const stats: TokensExtensionStats = { transfers: 0, malformed: 0 };
  let rpcHandedOver = false;
  return {
    name: "tokens",
    stats,
    async write(tx, batch, ctx) {
      if (!rpcHandedOver) {
        rpcHandedOver = true;
        o.onRpc?.(ctx.rpc);
      }
      const rows = deriveTokenRows(batch);
      for (const m of rows.malformed)
        o.logger?.debug(
          { block: m.blockNumber, log_index: m.logIndex, address: m.address, reason: m.reason },
          "Skipped a malformed token event",
        );
      await writeTokenRows(tx, rows);
      stats.transfers += rows.transfers.length;
      stats.malformed += rows.malformed.length;
    },
    revert: revertTokenRows,
    afterCommit(lastBlock) {
      o.onCommit?.(lastBlock);
    },
  };
}
