import type { FetchedBlock } from "../../../chain/types.js";
import type { Queryable } from "../../../db/db.js";
import { committedFact } from "../../pipeline/committed-fact.js";
import type { IndexerExtension } from "../../pipeline/extension.js";
import { mayCreateContracts } from "../core/derive.js";
import { dayFactsParams, foldDayFacts, type StatsCarry } from "./carry.js";
import {
  ADD_DAILY_STATS,
  ADD_DAILY_STATS_FROM_CARRY,
  addDailyStatsOf,
  type DaySources,
  SUBTRACT_DAILY_STATS,
} from "./sql.js";

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

/** The day facts' sources the batch's blocks can have rows in (the other stages write them from the same blocks). */
export function daySourcesOf(batch: readonly FetchedBlock[]): DaySources {
  return {
    transactions: batch.some((b) => b.block.transactions.length > 0),
    creations: mayCreateContracts(batch),
    authorizations: batch.some((b) => b.block.transactions.some((t) => t.authorizationList?.length)),
    rewards: batch.some((b) => (b.rewards?.length ?? 0) > 0),
  };
}

/**
 * The charts of the stats service (`daily_stats`, `daily_active_accounts`, `stats_accounts`), kept per UTC day with
 * every batch so today's point moves with each block. It reads the rows the other stages wrote for the batch
 * (contract creations, authorizations, block rewards), so it is listed after them; reverted in reverse order, it
 * still sees the rows it subtracts.
 */
export function statsExtension(): IndexerExtension {
  // Once a batch of this stage has committed, daily_stats has rows: the backfill check is not run again.
  const backfilled = committedFact<true>();
  /** Adds blocks from..to with `statement` (the one for the sources they can have rows in), then `more`. */
  const add = async (tx: Queryable, from: number, to: number, statement: string, more: unknown[] = []) => {
    if (!backfilled.value()) await backfillOnce(tx, from - 1);
    await tx.query(statement, [from - 1, to, 1, ...more]);
    backfilled.wrote(to, true);
  };
  return {
    id: "stats",
    async write(tx, batch) {
      if (!batch.length) return;
      const from = Number(batch[0]!.block.number);
      const to = Number(batch[batch.length - 1]!.block.number);
      await add(tx, from, to, addDailyStatsOf(daySourcesOf(batch)));
    },
    trailing: {
      writeStored: (tx, from, to) => add(tx, from, to, ADD_DAILY_STATS),
      carry: {
        needs: ["core", "balances"],
        fold: foldDayFacts,
        write: (tx, from, to, carried: StatsCarry) =>
          add(tx, from, to, ADD_DAILY_STATS_FROM_CARRY, dayFactsParams(carried)),
      },
    },
    async revert(tx, ancestor) {
      backfilled.forget();
      await backfillOnce(tx, END);
      const days = await tx.query<{ day: string; empty: boolean }>(SUBTRACT_DAILY_STATS, [ancestor, END, -1]);
      // A day whose every block was reverted has no row in a clean index either.
      const empty = days.filter((d) => d.empty).map((d) => d.day);
      if (empty.length) await tx.query("delete from daily_stats where day = any($1::date[])", [empty]);
    },
    afterCommit: (lastBlock) => backfilled.committed(lastBlock),
  };
}
