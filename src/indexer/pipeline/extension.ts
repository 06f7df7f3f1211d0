import type { NodeCapabilities } from "../../chain/capabilities.js";
import type { Rpc } from "../../chain/rpc.js";
import type { FetchedBlock } from "../../chain/types.js";
import type { Queryable } from "../../db/db.js";

/**
 * A part of the indexer that derives its own tables from blocks (balance changes, token transfers, ...).
 * The runtime calls it inside the same transactions as the core tables, so its rows move with the checkpoint:
 * nothing half-written survives a crash, nothing from an orphaned block survives a reorganisation.
 */
export type IndexerExtension = {
  name: string;
  /**
   * Extra JSON-RPC data for one block, requested in the same tick as the core calls (one JSON-RPC batch).
   * The result lands in `FetchedBlock.extra[name]`. Throw `InconsistentBlockError` from `write` if it turns out
   * to belong to another version of the block; the runtime then fetches the range again.
   */
  fetchBlock?(rpc: Rpc, number: number, caps: NodeCapabilities): Promise<unknown>;
  /**
   * Follow-up work on one fetched block that needs its contents (JSON-RPC calls about its transactions,
   * CPU-heavy derivations): run as soon as the block has arrived, beside the writes of earlier ranges, not inside
   * the batch transaction, which every range waits for. The result lands in `FetchedBlock.extra[name]`, in place of
   * what `fetchBlock` brought (which it finds there).
   */
  afterFetch?(rpc: Rpc, fetched: FetchedBlock, caps: NodeCapabilities): Promise<unknown>;
  /** Writes derived rows for a batch of consecutive blocks, after the core rows, in the batch transaction. */
  write(
    tx: Queryable,
    batch: readonly FetchedBlock[],
    ctx: { rpc: Rpc; caps: NodeCapabilities },
  ): Promise<void>;
  /** Deletes or restores everything derived from blocks above `ancestor`, in the reorg transaction. */
  revert(tx: Queryable, ancestor: number): Promise<void>;
  /** Told after a batch commits (e.g. to wake a background worker); must not block. */
  afterCommit?(lastBlock: number): void;
  /** Stops background work the extension started; awaited at shutdown before the database closes. */
  stop?(): Promise<void>;
};
