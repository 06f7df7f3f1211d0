import type { FetchedBlock } from "../../../chain/types.js";
import type { Queryable } from "../../../db/db.js";
import { committedFact } from "../../pipeline/committed-fact.js";
import type { IndexerExtension } from "../../pipeline/extension.js";
import { type CarriedCounters, carriedParams, foldCounters } from "./carry.js";
import {
  ADD_COUNTERS_FROM_FACTS,
  ALL_ROWS,
  addCountersOf,
  DELETE_ADDRESSES,
  DELETE_EMPTY_COUNTERS,
  type RowSources,
  SUBTRACT_ADDRESS_FACTS,
  UPSERT_CHAIN_COUNTERS,
  UPSERT_DAILY_COUNTERS,
} from "./sql.js";

/** Above any block number: the open end of a reorg's range. */
const END = Number.MAX_SAFE_INTEGER;

/** The tables the batch's blocks can have rows in (the other stages write them from the same blocks). */
export function rowSourcesOf(batch: readonly FetchedBlock[]): RowSources {
  return {
    transactions: batch.some((b) => b.block.transactions.length > 0),
    creations: batch.some((b) => b.block.transactions.some((t) => t.to == null)),
    logs: batch.some((b) => b.receipts.some((r) => (r.logs?.length ?? 0) > 0)),
    // Every frame but a transaction's top-level call is counted: a root other than a call, or one with children.
    internals: batch.some((b) =>
      (b.calls ?? []).some(
        (root) => root && ((root.type ?? "").toUpperCase() !== "CALL" || (root.calls?.length ?? 0) > 0),
      ),
    ),
    withdrawals: batch.some((b) => (b.block.withdrawals?.length ?? 0) > 0),
  };
}

async function subtractAbove(tx: Queryable, ancestor: number): Promise<void> {
  const rows = await tx.query<{ address: Uint8Array; empty: boolean }>(SUBTRACT_ADDRESS_FACTS, [
    ancestor,
    END,
    -1,
  ]);
  // An address whose every counter came from the reverted blocks has no row in a clean index either, unless a
  // balance change below them still shows it.
  const empty = rows.filter((r) => r.empty).map((r) => r.address);
  if (empty.length) await tx.query(DELETE_EMPTY_COUNTERS, [empty, ancestor]);
  await tx.query(DELETE_ADDRESSES, [ancestor]);
  await tx.query(UPSERT_CHAIN_COUNTERS, [ancestor, END, -1]);
  // A day whose every block was reverted has no row in a clean index either.
  const days = await tx.query<{ day: string; empty: boolean }>(UPSERT_DAILY_COUNTERS, [ancestor, END, -1]);
  const emptyDays = days.filter((d) => d.empty).map((d) => d.day);
  if (emptyDays.length) await tx.query("delete from daily_counters where day = any($1::date[])", [emptyDays]);
}

/**
 * A database indexed before the counters existed has blocks but no chain counters: count what is there once, with
 * the same statements, before the first change (rows of other parts that were not indexed then, such as internal
 * transactions, are not there to count; their blocks say so).
 */
async function backfillOnce(tx: Queryable, upTo: number): Promise<void> {
  const [r] = await tx.query<{ pending: boolean }>(
    `select not exists (select 1 from chain_counters where name = 'blocks')
       and exists (select 1 from blocks where number <= $1) as pending`,
    [upTo],
  );
  if (r?.pending) await tx.query(addCountersOf({ ...ALL_ROWS, history: true }), [-END - 1, upTo, 1]);
}

/**
 * Per-address counters (`address_counters`), first sightings (`addresses`) and chain-wide counters
 * (`chain_counters`), kept incrementally so no page counts rows. It reads the rows the other parts wrote for the
 * batch, so it is listed after them; the runtime reverts extensions in reverse order before the core rows, so
 * its revert still sees the rows it subtracts.
 */
export function countersExtension(): IndexerExtension {
  // Once a batch of this stage has committed, the chain counters exist: the backfill check is not run again.
  const backfilled = committedFact<true>();
  /** Adds blocks from..to with `statement` ($1 < block <= $2, $3 = 1, then `more`). */
  const add = async (tx: Queryable, from: number, to: number, statement: string, more: unknown[] = []) => {
    if (!backfilled.value()) await backfillOnce(tx, from - 1);
    await tx.query(statement, [from - 1, to, 1, ...more]);
    backfilled.wrote(to, true);
  };
  return {
    id: "counters",
    async write(tx, batch, ctx) {
      if (!batch.length) return;
      const from = Number(batch[0]!.block.number);
      const to = Number(batch[batch.length - 1]!.block.number);
      await add(tx, from, to, addCountersOf({ ...rowSourcesOf(batch), history: ctx.history === true }));
    },
    trailing: {
      writeStored: (tx, from, to) => add(tx, from, to, addCountersOf({ ...ALL_ROWS, history: false })),
      carry: {
        // The rows its facts come from: core's, the token transfers, internal transactions, withdrawals and
        // balance changes.
        needs: ["core", "tokens", "internal-transactions", "withdrawals", "balances"],
        fold: foldCounters,
        write: (tx, from, to, carried: CarriedCounters) =>
          add(tx, from, to, ADD_COUNTERS_FROM_FACTS, carriedParams(carried)),
      },
    },
    async revert(tx, ancestor) {
      backfilled.forget();
      await backfillOnce(tx, END);
      await subtractAbove(tx, ancestor);
    },
    afterCommit: (lastBlock) => backfilled.committed(lastBlock),
  };
}
