import type { NodeCapabilities } from "../../chain/capabilities.js";
import type { Rpc } from "../../chain/rpc.js";
import type { FetchedBlock } from "../../chain/types.js";
import { closeTrail, moveTrail, openTrail, readTrail } from "../../chain-store/trail.js";
import type { Db, Queryable } from "../../db/db.js";
import { LookoutError } from "../../errors/base.js";
import type { Logger } from "../../util/logger.js";
import type { IndexerExtension } from "./extension.js";

type Deps = {
  db: Db;
  rpc: Rpc;
  caps: NodeCapabilities;
  logger: Logger;
  /** The trailing stages, in write order. */
  stages: readonly IndexerExtension[];
};

const trailMoved = (from: number) =>
  new LookoutError({
    code: "checkpoint_moved",
    shortMessage: `Another writer moved the trailing stages' cursor (this one held ${from}); continuing from it.`,
  });

/**
 * The trailing stages' writes during catch-up (docs/architecture.md, "Trailing stages"). A batch's transaction
 * writes every other stage and commits; the trailing stages (sums read back from the batch's committed rows,
 * written to tables no other stage writes) then write the same batch in a transaction of their own on another
 * connection, beside the next batch's transaction: PostgreSQL works on two batches at once. One trailing write is
 * in flight at a time, in block order; `indexer_trail` (chain-store/trail.ts) says up to which block they have
 * written, moved in the same transaction, so a crash leaves them either level with the checkpoint or behind it by
 * whole batches, which `settle` (also at start) writes from the stored rows before anything else is written.
 * PGlite has one connection: there every batch writes its trailing stages in its own transaction, as before.
 */
export class TrailingWrites {
  private job: Promise<void> = Promise.resolve();
  /** The cursor row may exist (unknown at start: true until a read or a delete says otherwise). */
  private open = true;
  /** A trailing write failed: what it owed is written by `settle` before the next batch. */
  private failed = false;

  constructor(private readonly deps: Deps) {}

  /** Whether a batch may leave its trailing stages to a transaction of their own. */
  get usable(): boolean {
    return this.deps.db.kind === "postgres" && this.deps.stages.length > 0 && !this.failed;
  }

  /** In the transaction of a batch that leaves them: the cursor at the block before it, if not there already. */
  async holdIn(tx: Queryable, before: number): Promise<void> {
    if (!this.open) await openTrail(tx, before);
  }

  /** After that transaction committed: the trailing stages' write of `batch`, after the ones before it. */
  follow(batch: readonly FetchedBlock[], before: number): void {
    const { db, rpc, caps, stages, logger } = this.deps;
    this.open = true;
    const last = Number(batch[batch.length - 1]!.block.number);
    this.job = this.job.then(async () => {
      if (this.failed) return;
      try {
        await db.transaction(async (tx) => {
          if (!(await moveTrail(tx, before, last))) throw trailMoved(before);
          for (const x of stages) await x.write(tx, batch, { rpc, caps });
        });
        for (const x of stages) x.afterCommit?.(last);
      } catch (e) {
        this.failed = true;
        logger.warn(
          { err: e, from: before + 1, to: last },
          "Trailing stages failed; written again from the stored rows",
        );
      }
    });
  }

  /**
   * Level with the checkpoint `tip`: waits for the trailing write in flight and writes, from the stored rows, what
   * a failed one (or a crash) left owed. Before every write that is not a batch leaving them, and at start.
   */
  async settle(tip: number | null): Promise<void> {
    await this.job;
    if (!this.open) return;
    const { db, stages } = this.deps;
    const owed = await readTrail(db);
    if (owed !== null && tip !== null && owed < tip) {
      await db.transaction(async (tx) => {
        if (!(await moveTrail(tx, owed, tip))) throw trailMoved(owed);
        for (const x of stages) await x.trailing!.writeStored(tx, owed + 1, tip);
      });
      for (const x of stages) x.afterCommit?.(tip);
      this.deps.logger.info({ from: owed + 1, to: tip }, "Trailing stages written up to the checkpoint");
    }
    this.open = owed !== null;
    this.failed = false;
  }

  /** In a transaction that writes (or reverts) the trailing stages itself, after `settle`: no cursor is left. */
  async closeIn(tx: Queryable): Promise<void> {
    if (this.open) await closeTrail(tx);
  }

  /** That transaction committed. */
  closed(): void {
    this.open = false;
  }
}
