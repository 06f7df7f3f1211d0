import type { Logger } from "../../../util/logger.js";
import type { IndexerExtension } from "../../pipeline/extension.js";
import { deriveTokenRows } from "../core/token-logs.js";
import { revertTokenRows, writeTokenRows } from "./store.js";

export type TokensExtensionStats = { transfers: number; malformed: number };

/**
 * Token transfers and current holdings, written in the block transaction (so a crash or a reorg never leaves
 * holdings out of step with the checkpoint). The token properties and metadata are fetched apart, by the token
 * workers (src/token-workers), which wake on the committed batches' `blocks` events.
 */
export function createTokensExtension(
  o: { logger?: Logger } = {},
): IndexerExtension & { stats: TokensExtensionStats } {
  const stats: TokensExtensionStats = { transfers: 0, malformed: 0 };
  return {
    id: "tokens",
    stats,
    async write(tx, batch, ctx) {
      const rows = deriveTokenRows(batch);
      for (const m of rows.malformed)
        o.logger?.debug(
          { block: m.blockNumber, log_index: m.logIndex, address: m.address, reason: m.reason },
          "Skipped a malformed token event",
        );
      await writeTokenRows(
        tx,
        rows,
        batch.length ? Number(batch[0]!.block.number) : 0,
        ctx.history === true,
        ctx.defer,
      );
      stats.transfers += rows.transfers.length;
      stats.malformed += rows.malformed.length;
    },
    revert: revertTokenRows,
  };
}
