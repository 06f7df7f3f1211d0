import type { FetchedBlock } from "../../../chain/types.js";
import { toBytea } from "../../../db/bytes.js";
import type { Queryable } from "../../../db/db.js";
import { committedFact } from "../../pipeline/committed-fact.js";
import type { IndexerExtension } from "../../pipeline/extension.js";
import { coreRowsOf } from "../core/extension.js";
import { ADD_HOT_CONTRACTS, ADD_HOT_SLOTS, DROP_OLD_MINUTES, SUBTRACT_HOT_CONTRACTS } from "./sql.js";

/** Above any block number: the open end of a reorg's range. */
const END = Number.MAX_SAFE_INTEGER;

/** Below every minute slot: a drop with no known start. */
const NO_SLOT = Number.MIN_SAFE_INTEGER;

/** Minute slots kept behind a batch's newest block: the 3 h scale and an hour of margin. */
const KEPT_MINUTES = 240;

/** The first minute slot kept behind a block of time `seconds` (epoch). */
const cutoffAt = (seconds: number) => Math.floor(seconds / 60) - KEPT_MINUTES;

/** One slot's sums for one recipient. */
type SlotSums = { granularity: number; slot: number; address: string; transactions: number; gas: bigint };

/**
 * The slots of committed batches, summed in memory as `ADD_HOT_CONTRACTS` sums them from the stored rows: per
 * granularity and slot (key `granularity:slot`), per recipient its transactions and their gas used; and the time
 * of the newest block folded in (the drop's cutoff). A block's transactions share its slots, so a transaction
 * costs a look-up by its recipient only.
 */
type HotSlots = { slots: Map<string, Map<string, SlotSums>>; lastSeconds: number };

const GRANULARITIES = [60, 86400] as const;

/** Adds the batch's transactions to `into` (new when undefined). Pure but for `into`. */
function foldSlots(into: HotSlots | undefined, batch: readonly FetchedBlock[]): HotSlots {
  const hot: HotSlots = into ?? { slots: new Map(), lastSeconds: 0 };
  for (const fetched of batch) {
    const { blocks, transactions } = coreRowsOf(fetched);
    const seconds = blocks[0]!.timestamp;
    hot.lastSeconds = seconds;
    if (transactions.length === 0) continue;
    const [minute, day] = GRANULARITIES.map((granularity) => {
      const slot = Math.floor(seconds / granularity);
      const key = `${granularity}:${slot}`;
      let recipients = hot.slots.get(key);
      if (!recipients) {
        recipients = new Map();
        hot.slots.set(key, recipients);
      }
      return { granularity, slot, recipients };
    }) as [SlotOf, SlotOf];
    for (const t of transactions) {
      if (t.to === null) continue;
      const address = t.to.toLowerCase();
      const gas = BigInt(t.gasUsed);
      for (const { granularity, slot, recipients } of [minute, day]) {
        const seen = recipients.get(address);
        if (seen) {
          seen.transactions++;
          seen.gas += gas;
        } else recipients.set(address, { granularity, slot, address, transactions: 1, gas });
      }
    }
  }
  return hot;
}
type SlotOf = { granularity: number; slot: number; recipients: Map<string, SlotSums> };

async function writeSlots(tx: Queryable, { slots }: HotSlots): Promise<void> {
  const rows = [...slots.values()].flatMap((recipients) => [...recipients.values()]);
  if (rows.length === 0) return;
  await tx.query(ADD_HOT_SLOTS, [
    rows.map((r) => r.granularity),
    rows.map((r) => r.slot),
    rows.map((r) => toBytea(r.address)),
    rows.map((r) => r.transactions),
    rows.map((r) => r.gas.toString()),
  ]);
}

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
  /**
   * A range of committed batches in order: its slots (carried from the batches, or summed from the stored rows),
   * then the drop of the minute slots its newest block leaves behind (the last committed cutoff still bounds it).
   */
  const addInOrder = async (tx: Queryable, from: number, to: number, hot: HotSlots | null) => {
    let seconds: number | undefined;
    if (hot) {
      await writeSlots(tx, hot);
      seconds = hot.lastSeconds;
    } else {
      await tx.query(ADD_HOT_CONTRACTS, [from - 1, to]);
      const [last] = await tx.query<{ seconds: string }>(
        "select extract(epoch from timestamp)::int8 as seconds from blocks where number = $1",
        [to],
      );
      seconds = last ? Number(last.seconds) : undefined;
    }
    if (seconds !== undefined) await dropInOrder(tx, to, cutoffAt(seconds));
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
      // A range of catch-up batches, or what a crash left owed (the last committed cutoff unknown after a restart).
      writeStored: (tx, from, to) => addInOrder(tx, from, to, null),
      carry: {
        needs: ["core"],
        fold: foldSlots,
        write: (tx, from, to, slots: HotSlots) => addInOrder(tx, from, to, slots),
      },
    },
    async revert(tx, ancestor) {
      dropped.forget();
      await tx.query(SUBTRACT_HOT_CONTRACTS, [ancestor, END]);
    },
    afterCommit: (lastBlock) => dropped.committed(lastBlock),
  };
}
