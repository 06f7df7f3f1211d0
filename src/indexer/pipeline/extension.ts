import type { NodeCapabilities } from "../../chain/capabilities.js";
import { fetchBlock } from "../../chain/fetch-block.js";
import type { Rpc } from "../../chain/rpc.js";
import type { FetchedBlock } from "../../chain/types.js";
import { type Queryable, readAhead } from "../../db/db.js";

/**
 * Every stage's id: its folder under `indexer/stages/` (`live-notify`: its file there). A stage a test composes for
 * itself is named `test-…`.
 */
export type StageId =
  | "core"
  | "op-stack"
  | "balances"
  | "current-balances"
  | "tokens"
  | "proxies"
  | "authorizations"
  | "blobs"
  | "auto-verify"
  | "internal-transactions"
  | "withdrawals"
  | "block-rewards"
  | "counters"
  | "stats"
  | "hot-contracts"
  | "live-notify"
  | `test-${string}`;

/** What a stage's `write` is given besides the batch. */
export type WriteContext<P = unknown> = {
  rpc: Rpc;
  caps: NodeCapabilities;
  history?: boolean;
  /** The answer of the stage's `prepare`, sent at the transaction's start (undefined where nothing prepared it). */
  prepared?: Promise<P>;
  /**
   * Hands over statements still to be sent once reads the stage sent are answered (a counter update from the rows
   * an upsert returned): later stages write meanwhile, so the batch does not wait for the round trip; the
   * transaction waits for `work` before the checkpoint moves. Without it (a caller that writes one stage), the
   * stage awaits `work` itself.
   */
  defer?(work: Promise<void>): void;
};

/**
 * A part of the indexer that derives its own tables from blocks (balance changes, token transfers, ...).
 * The runtime calls it inside the same transactions as the core tables, so its rows move with the checkpoint:
 * nothing half-written survives a crash, nothing from an orphaned block survives a reorganisation.
 * `T`: what its `afterFetch` brings for each block, read back in `write` through its `stageSlot`.
 */
export type IndexerExtension<T = unknown, P = unknown> = {
  id: StageId;
  /**
   * Follow-up work on one fetched block that needs its contents (JSON-RPC calls about its transactions,
   * CPU-heavy derivations): run as soon as the block has arrived (`chain/fetch-block.ts`, whose members every stage
   * may read), beside the writes of earlier ranges, not inside the batch transaction, which every range waits for.
   * Every stage's `afterFetch` runs at once, so it reads the fetched block only, never another stage's result.
   * Throw `InconsistentBlockError` from `write` if it turns out to belong to another version of the block; the
   * runtime then fetches the range again.
   */
  afterFetch?(rpc: Rpc, fetched: FetchedBlock, caps: NodeCapabilities): Promise<T>;
  /**
   * Writes derived rows for a batch of consecutive blocks, after the core rows, in the batch transaction.
   * `history` (head first, docs/architecture.md): the batch is below the head: history catching up, or the head
   * segment written again when history joins it; blocks newer than it may be indexed already. A stage must then
   * not act as if the batch were the chain's newest (announce it, answer requests "at the head"), and facts it
   * keeps across blocks must be exact in any order: sums, or "first seen" as the least block.
   */
  write(tx: Queryable, batch: readonly FetchedBlock[], ctx: WriteContext<P>): Promise<void>;
  /**
   * A read `write` needs that none of the batch's own writes changes (is anything verified, are refreshes asked):
   * sent at the start of the batch transaction, before any stage writes, so its answer is back by the time `write`
   * awaits it (`ctx.prepared`) instead of the batch waiting for a round trip at its end. A caller that does not
   * prepare leaves `ctx.prepared` undefined and `write` reads itself.
   */
  prepare?(tx: Queryable, batch: readonly FetchedBlock[], ctx: { history?: boolean }): Promise<P>;
  /**
   * A trailing stage (pipeline/trail.ts): it reads only rows the other stages wrote for the batch and writes tables
   * (or rows) no other stage writes, so while the indexer catches up on PostgreSQL a batch's transaction leaves it
   * out, and `writeStored` writes what it owes for the committed blocks `from`..`to` (several batches at once, or
   * what a crash or a failure left owed), read from the database alone, in a transaction of its own beside the next
   * batches'. It must give the rows `write` gives batch by batch. Its `afterCommit` then follows that transaction.
   */
  trailing?: {
    writeStored(tx: Queryable, from: number, to: number): Promise<void>;
    /**
     * What `writeStored` reads back, taken from the batches themselves as they commit (pipeline/trail.ts): a
     * trailing write of batches this process followed then writes from it and reads none of their rows again.
     * What a crash or a failure left owed is still written by `writeStored`.
     */
    carry?: TrailCarry;
  };
  /** Deletes or restores everything derived from blocks above `ancestor`, in the reorg transaction. */
  revert(tx: Queryable, ancestor: number): Promise<void>;
  /** Told after a batch commits (e.g. to wake a background worker); must not block. */
  afterCommit?(lastBlock: number): void;
  /** Stops background work the extension started; awaited at shutdown before the database closes. */
  stop?(): Promise<void>;
};

/**
 * A trailing stage's sums of committed batches, kept in memory between its writes. `fold` adds a batch to what is
 * carried (undefined: nothing yet) and returns it; `write` writes the blocks `from`..`to` that the folded batches
 * cover, in the trailing transaction, with the same rows `writeStored` would give. `S` is the stage's own (the
 * runtime only hands back what `fold` gave).
 */
export type TrailCarry<S = unknown> = {
  /**
   * The stages whose rows `writeStored` reads: the sums are carried only when every one of them runs (a stage
   * left out writes no rows, which the fold, reading the fetched blocks, would count all the same).
   */
  needs: readonly StageId[];
  fold(carried: S | undefined, batch: readonly FetchedBlock[]): S;
  write(tx: Queryable, from: number, to: number, carried: S): Promise<void>;
};

/** Where a stage's `afterFetch` result of a block is kept, typed for the stage (which alone reads it). */
export type StageSlot<T> = { readonly id: StageId; of(fetched: FetchedBlock): T | undefined };

/** The slot of stage `id`; undefined for a block fetched without the stage's `afterFetch` (a caller of its own). */
export function stageSlot<T>(id: StageId): StageSlot<T> {
  return { id, of: (fetched) => fetched.extra[id] as T | undefined };
}

/**
 * The stages' work on fetched blocks goes one stage of one block per turn of the event loop. A range's blocks arrive
 * in one JSON-RPC answer; deriving all of them in one go held the main thread for a range's worth of CPU, while the
 * batch transaction's statement results waited to be read. Between two turns those results are read and the next
 * statement sent, so the write of range N goes on while N+1 is derived.
 */
let turns: Promise<void> = Promise.resolve();
function nextTurn(): Promise<void> {
  turns = turns.then(() => new Promise<void>((resolve) => setImmediate(resolve)));
  return turns;
}

/**
 * One block as the indexer fetches it: the block with its receipts, traces and prestate diffs (one JSON-RPC batch),
 * then every stage's `afterFetch` on it, each started in a turn of the event loop of its own and all in flight at
 * once, each result kept under the stage's id. `beforeStages`: awaited between the two (history giving way to the
 * API before its derivations).
 */
export async function fetchForStages(
  rpc: Rpc,
  number: number,
  caps: NodeCapabilities,
  stages: readonly IndexerExtension[],
  beforeStages?: () => Promise<void>,
): Promise<FetchedBlock> {
  const fetched = await fetchBlock(rpc, number, caps);
  await nextTurn();
  if (beforeStages) await beforeStages();
  // Each stage's synchronous part in a turn of its own (a busy block's core rows alone hold the thread for
  // milliseconds); none waits for another's calls to the node.
  const running: Array<Promise<unknown> | undefined> = [];
  let started = false;
  for (const x of stages) {
    if (!x.afterFetch) {
      running.push(undefined);
      continue;
    }
    if (started) await nextTurn();
    started = true;
    const result = x.afterFetch(rpc, fetched, caps);
    // Observed by the Promise.all below; a failure before it is reached must not count as unhandled.
    result.catch(() => {});
    running.push(result);
  }
  const results = await Promise.all(running);
  stages.forEach((x, i) => {
    if (x.afterFetch) fetched.extra[x.id] = results[i];
  });
  return fetched;
}

/**
 * Writes `batch` through `stages` in order in the transaction `tx`: every stage's `prepare` read is sent first,
 * and the work stages defer is awaited at the end, so the caller's next statement (the checkpoint) follows all of it.
 */
export async function writeStages(
  tx: Queryable,
  stages: readonly IndexerExtension[],
  batch: readonly FetchedBlock[],
  ctx: WriteContext,
): Promise<void> {
  const prepared = stages.map((x) => (x.prepare ? readAhead(x.prepare(tx, batch, ctx)) : undefined));
  const deferred: Array<Promise<void>> = [];
  const defer = (work: Promise<void>) => {
    deferred.push(readAhead(work));
  };
  try {
    for (const [i, x] of stages.entries()) {
      const p = prepared[i];
      await x.write(tx, batch, { ...ctx, ...(p ? { prepared: p } : {}), defer });
    }
  } catch (e) {
    // Nothing deferred may send a statement after the transaction ends (its connection goes back to the pool).
    await Promise.allSettled(deferred);
    throw e;
  }
  await Promise.all(deferred);
}
