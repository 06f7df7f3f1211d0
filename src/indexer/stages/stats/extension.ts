import type { Queryable } from "../../../db/db.js";
import type { IndexerExtension } from "../../pipeline/extension.js";
import { ADD_DAILY_STATS, SUBTRACT_DAILY_STATS } from "./sql.js";

/** Above any block number: the open end of a reorg's range. */
const END = Number.MAX_SAFE_INTEGER;

/**
 * An index made before this stage existed has blocks but no daily stats: its history is counted once, with the
 * same statement, before the first change (a day with a block always has a row after that).
 */
async function backfillOnce(tx: Queryable, upTo: number): Promise<void> {
  const [r] = await tx.query<{ pending: boolean }>(
    `select not exists (select 1 from daily_stats)
       and exists (select 1 from blocks where number <= $1) as pending`,
    [upTo],
  );
  if (r?.pending) await tx.query(ADD_DAILY_STATS, [-END, upTo, 1]);
}

/**
 * The charts of the stats service (`daily_stats`, `daily_active_accounts`, `stats_accounts`), kept per UTC day with
 * every batch so today's point moves with each block. It reads the rows the other stages wrote for the batch
 * (contract creations, authorizations, block rewards), so it is listed after them; reverted in reverse order, it
 * still sees the rows it subtracts.
 */
export function statsExtension(): IndexerExtension {
  return {
    id: "stats",
    async write(tx, batch) {
      if (!batch.length) return;
      const from = Number(batch[0]!.block.number);
      await backfillOnce(tx, from - 1);
      await tx.query(ADD_DAILY_STATS, [from - 1, Number(batch[batch.length - 1]!.block.number), 1]);
    },
    async revert(tx, ancestor) {
      await backfillOnce(tx, END);
      const days = await tx.query<{ day: string; empty: boolean }>(SUBTRACT_DAILY_STATS, [ancestor, END, -1]);
      // A day whose every block was reverted has no row in a clean index either.
      const empty = days.filter((d) => d.empty).map((d) => d.day);
      if (empty.length) await tx.query("delete from daily_stats where day = any($1::date[])", [empty]);
    },
  };
}
