import type { Queryable } from "../../../db/db.js";
import { committedFact } from "../../pipeline/committed-fact.js";
import type { IndexerExtension } from "../../pipeline/extension.js";
import { ADD_HOT_CONTRACTS, DROP_OLD_MINUTES, SUBTRACT_HOT_CONTRACTS } from "./sql.js";

/** Above any block number: the open end of a reorg's range. */
const END = Number.MAX_SAFE_INTEGER;

/** Below every minute slot: a drop with no known start. */
const NO_SLOT = Number.MIN_SAFE_INTEGER;

/** Minute slots kept behind a batch's newest block: the 3 h scale and an hour of margin. */
const KEPT_MINUTES = 240;

/** The first minute slot kept behind a block of time `seconds` (epoch). */
const cutoffAt = (seconds: number) => Math.floor(seconds / 60) - KEPT_MINUTES;

/**
 * `hot_contracts` (migration 165): per recipient its transactions and gas used per minute and per UTC day, for
 * `/api/v2/stats/hot-smart-contracts`. Two statements a batch (add; drop minute slots out of every scale, once a
 * minute at the head), one a reorg; it reads the batch's transactions, so it is listed after the core stage (and
 * reverted before it).
 */
export function hotContractsExtension(): IndexerExtension {
  // The cutoff the last committed head batch dropped up to: the head's next batches in the same minute add slots
  // at or above it only, so they skip the drop. History (old slots) and a reorganisation make it unknown again.
  const dropped = committedFact<number>();
  /** Drops the slots below `cutoff` after blocks written in order up to `lastBlock`, unless the last drop did. */
  const dropInOrder = async (tx: Queryable, lastBlock: number, cutoff: number) => {
    const since = dropped.value();
    if (since === cutoff) return;
    // Every slot below the last committed cutoff is gone already (a history batch in between forgot it).
    await tx.query(DROP_OLD_MINUTES, [cutoff, since ?? NO_SLOT]);
    dropped.wrote(lastBlock, cutoff);
  };
  return {
    id: "hot-contracts",
    async write(tx, batch, ctx) {
      if (!batch.length) return;
      const from = Number(batch[0]!.block.number);
      const last = batch[batch.length - 1]!.block;
      await tx.query(ADD_HOT_CONTRACTS, [from - 1, Number(last.number)]);
      const cutoff = cutoffAt(Number(BigInt(last.timestamp)));
      if (ctx.history) {
        dropped.forget();
        await tx.query(DROP_OLD_MINUTES, [cutoff, NO_SLOT]);
        return;
      }
      await dropInOrder(tx, Number(last.number), cutoff);
    },
    trailing: {
      // A range of catch-up batches, or what a crash left owed: in order, so the last committed cutoff still
      // bounds the drop (unknown after a restart).
      async writeStored(tx, from, to) {
        await tx.query(ADD_HOT_CONTRACTS, [from - 1, to]);
        const [last] = await tx.query<{ seconds: string }>(
          "select extract(epoch from timestamp)::int8 as seconds from blocks where number = $1",
          [to],
        );
        if (last) await dropInOrder(tx, to, cutoffAt(Number(last.seconds)));
      },
    },
    async revert(tx, ancestor) {
      dropped.forget();
      await tx.query(SUBTRACT_HOT_CONTRACTS, [ancestor, END]);
    },
    afterCommit: (lastBlock) => dropped.committed(lastBlock),
  };
}
