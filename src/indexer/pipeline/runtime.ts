import type { Hash } from "viem";
import type { NodeCapabilities } from "../../chain/capabilities.js";
import { toQuantity } from "../../chain/fetch-block.js";
import { type Rpc, sleep, withRetry } from "../../chain/rpc.js";
import type { FetchedBlock, RpcBlock } from "../../chain/types.js";
import {
  initState,
  joinCheckpoint,
  lockCheckpoint,
  lockHistory,
  moveCheckpoint,
  moveHistory,
  readState,
  splitCheckpoint,
  storedHashes,
} from "../../chain-store/checkpoint.js";
import { type Db, type Queryable, readAhead } from "../../db/db.js";
import { LookoutError } from "../../errors/base.js";
import type { Logger } from "../../util/logger.js";
import type { RequestActivity } from "../../util/request-activity.js";
import { FatalIndexerError, InconsistentBlockError } from "./errors.js";
import { fetchForStages, type IndexerExtension, writeStages } from "./extension.js";
import { Progress } from "./progress.js";
import { TrailingWrites } from "./trail.js";

/** The first range of a row-sized start, before the rows per block are known. */
const PROBE_BLOCKS = 10;
/** The rate of the next range is that of the last this many blocks (the next blocks are most like the newest). */
const RATE_BLOCKS = 8;
/**
 * Pacing history beside the API (IndexerDeps.pacing): when the API answered a request this recently, history's
 * ranges are this many times smaller (shorter steps for a request to share the machine with). 32, not 8: beside a
 * back-to-back request loop the address page's p99 was 1.5-1.6x idle against 2.0-2.1x, history there at half the
 * speed (docs/benchmarks.md, head first, session 28); with the API idle history's speed is unchanged.
 */
const PACE_BUSY_WITHIN_MS = 1_000;
const PACE_RANGE_DIVISOR = 32;

function observeRows(rate: number[], batch: readonly FetchedBlock[]): void {
  for (const f of batch.slice(-RATE_BLOCKS)) rate.push(1 + f.block.transactions.length);
  rate.splice(0, rate.length - RATE_BLOCKS);
}

export type IndexerOptions = {
  startBlock: number;
  reorgDepth: number;
  /** Blocks per batch; with `batchTransactions`, the most blocks a batch holds. */
  batchSize: number;
  /**
   * Batches sized by rows: a batch holds about this many transactions plus blocks (each block is a row too), so a
   * busy chain's batch and a quiet chain's cost about the same. The range size follows the rows per block of the
   * ranges fetched so far. Unset: every batch is `batchSize` blocks.
   */
  batchTransactions?: number;
  fetchConcurrency: number;
  pollIntervalMs: number;
  /**
   * Head first: when more than this many blocks are behind the head, the head is indexed from the newest
   * `batchSize` blocks on while history catches up beside it (0: always in order from the checkpoint).
   */
  headFirstBlocks?: number;
  /** Local development chain: a different chain behind the URL wipes the index instead of stopping. */
  resetOnNewChain?: boolean;
  /**
   * Catching up on PostgreSQL: committed batches the trailing stages (current balances, counters, stats, hot
   * contracts) write at once, in a transaction of their own beside the next batches' (docs/architecture.md,
   * "Trailing stages").
   */
  trailBatches?: number;
};

/**
 * Enough batches that the addresses they share are written once (on the busy bench chain, 32 batches of 3,000
 * transactions cost PostgreSQL a fifth less CPU than 8: docs/benchmarks.md, session 24), few enough that the
 * counters lag by seconds.
 */
const DEFAULT_TRAIL_BATCHES = 32;

export type IndexerDeps = {
  db: Db;
  rpc: Rpc;
  caps: NodeCapabilities;
  logger: Logger;
  /** The stages, in write order (indexer/stages/index.ts lists them all; the core rows are the first). */
  extensions: readonly IndexerExtension[];
  options: IndexerOptions;
  /** Called after each committed range with its size and write time (metrics). */
  onBatch?: (blocks: number, writeMs: number) => void;
  /**
   * The API of the same process (`lookout start`): while a request is in flight, history catching up beside the
   * head waits before each fetch, derivation and statement, in smaller ranges; the head never waits. Unset (or no
   * request in flight): history runs at full speed.
   */
  pacing?: RequestActivity;
};

type Tip = { number: number; hash: Hash } | null;
type Tx = Queryable;
/** History catching up beside the head: [startBlock .. history] is indexed, the head segment starts at headStart. */
type Split = { headStart: number; history: Tip };

/** Another writer moved the checkpoint this indexer held at `tip` (lease.ts). */
const movedError = (tip: Tip) =>
  new LookoutError({
    code: "checkpoint_moved",
    shortMessage: `Another indexer moved the checkpoint (this one held ${tip?.number ?? "none"}); continuing from it.`,
  });

/**
 * Joins sync and the stages: catches up from the checkpoint to the head with concurrent range fetches, each
 * written in order by every stage (one transaction per range, checkpoint moved in it), then follows the head, detecting
 * reorganisations by parent hash and by re-checking the stored tip. No SQL and no JSON-RPC shapes here.
 */
export class Indexer {
  readonly progress = new Progress();
  chainId: number | null = null;
  /** The head cursor: the last block of the head segment (of the whole index when not split). */
  private tip: Tip = null;
  private split: Split | null = null;
  /** A split decided by `step`, made in the transaction of the head segment's first batch. */
  private pendingSplit: number | null = null;
  private historyRun: Promise<void> | null = null;
  private historyFatal: unknown = null;
  /** Every write transaction (head, history, reorg, join) runs alone in this process, in arrival order. */
  private writing: Promise<unknown> = Promise.resolve();
  /** Head writes (batches, reorgs) queued behind another write: history then does not pause for the API. */
  private headWaiting = 0;
  /** History steps waiting for the API now: a head write that queues lets them go at once (one may hold the writer). */
  private readonly givingWay = new Set<() => void>();
  private readonly extensions: readonly IndexerExtension[];
  /** The stages a catching-up batch leaves to a transaction of their own, and the others. */
  private readonly leading: readonly IndexerExtension[];
  private readonly trail: TrailingWrites;

  constructor(private readonly deps: IndexerDeps) {
    this.extensions = deps.extensions;
    this.leading = deps.extensions.filter((x) => !x.trailing);
    this.trail = new TrailingWrites({
      db: deps.db,
      logger: deps.logger,
      stages: deps.extensions.filter((x) => x.trailing),
      present: new Set(deps.extensions.map((x) => x.id)),
      mergeBatches: deps.options.trailBatches ?? DEFAULT_TRAIL_BATCHES,
    });
  }

  private get log() {
    return this.deps.logger;
  }

  /** Reads the chain id, checks the database holds this chain, loads the checkpoint. */
  async init(signal?: AbortSignal): Promise<void> {
    const { db, rpc, options } = this.deps;
    const retry = { attempts: 8, ...(signal ? { signal } : {}) };
    this.chainId = Number(await withRetry(() => rpc.request<string>("eth_chainId", []), retry));
    const start = await withRetry(
      () => rpc.request<RpcBlock | null>("eth_getBlockByNumber", [toQuantity(options.startBlock), false]),
      retry,
    );
    if (!start) {
      throw new FatalIndexerError({
        code: "start_block_missing",
        shortMessage: `START_BLOCK ${options.startBlock} is above the chain's head; lower START_BLOCK or wait for the chain.`,
      });
    }
    const state = await readState(db);
    const same =
      state &&
      state.chainId === this.chainId &&
      state.startBlock === options.startBlock &&
      state.startHash === start.hash;
    if (state && !same) {
      const what = `The database holds chain ${state.chainId} from block ${state.startBlock} (${state.startHash}); the node serves chain ${this.chainId} with block ${options.startBlock} = ${start.hash}.`;
      if (!options.resetOnNewChain) {
        throw new FatalIndexerError({
          code: "chain_mismatch",
          shortMessage: `${what} Use another DATABASE_URL/DATA_DIR, or the original START_BLOCK.`,
        });
      }
      this.log.warn(
        { stored_chain_id: state.chainId, chain_id: this.chainId },
        `${what} Resetting the index.`,
      );
      await db.transaction(async (tx) => {
        await this.revertAll(tx, -1);
      });
    }
    if (!same)
      await initState(db, { chainId: this.chainId, startBlock: options.startBlock, startHash: start.hash });
    await this.loadCursors(db);
    // A crash between a batch and its trailing stages' write: they catch up before anything else is written.
    await this.trail.settle(this.tip?.number ?? null);
    this.progress.update(this.tip?.number ?? null, null);
    this.log.info(
      {
        chain_id: this.chainId,
        checkpoint: this.tip?.number ?? null,
        ...(this.split
          ? { head_start: this.split.headStart, history_block: this.split.history?.number ?? null }
          : {}),
        traces: this.deps.caps.traces,
        chain_type: this.deps.caps.chainType,
      },
      "Indexer ready",
    );
  }

  /** Stops the extensions' background work (after `run` has returned). */
  async stopExtensions(): Promise<void> {
    for (const x of this.extensions) await x.stop?.();
  }

  /** Runs until `signal` aborts. Transient errors are logged and retried; fatal ones are thrown. */
  async run(signal: AbortSignal): Promise<void> {
    if (this.chainId === null) await this.init(signal);
    try {
      await this.runHead(signal);
    } finally {
      await this.historyRun;
    }
  }

  private async runHead(signal: AbortSignal): Promise<void> {
    let failures = 0;
    while (!signal.aborted) {
      this.startHistory(signal);
      if (this.historyFatal) throw this.historyFatal;
      try {
        const moved = await this.step(signal);
        failures = 0;
        this.progress.lastError = null;
        if (!moved && !signal.aborted) await sleep(this.deps.options.pollIntervalMs, signal);
      } catch (e) {
        if (e instanceof FatalIndexerError) throw e;
        failures++;
        this.progress.lastError = e instanceof Error ? e.message.split("\n")[0]! : String(e);
        const delay = Math.min(30_000, 500 * 2 ** Math.min(failures, 6));
        this.log.warn({ err: e, retry_in_ms: delay }, "Indexing step failed; retrying");
        await sleep(delay, signal);
      }
    }
  }

  /** One round: check the tip, then index up to the head. Returns whether anything was written or reverted. */
  async step(signal?: AbortSignal): Promise<boolean> {
    const { rpc, options } = this.deps;
    const head = Number(await rpc.request<string>("eth_blockNumber", []));
    this.progress.update(this.tip?.number ?? null, head);
    if (this.tip) {
      // Re-check the stored tip each round: catches reorgs that keep the height (anvil_reorg) and rollbacks.
      const nodeTip =
        head >= this.tip.number
          ? await rpc.request<RpcBlock | null>("eth_getBlockByNumber", [toQuantity(this.tip.number), false])
          : null;
      if (nodeTip?.hash !== this.tip.hash) {
        await this.handleReorg();
        return true;
      }
    }
    let from = this.tip ? this.tip.number + 1 : (this.split?.headStart ?? options.startBlock);
    const gap = options.headFirstBlocks ?? 0;
    if (!this.split && gap > 0 && head - from + 1 > gap) {
      // Head first: the newest batch now, the blocks between the checkpoint and it by the history writer.
      this.pendingSplit = Math.max(from + 1, head - this.rangeSize(this.headRate) + 1);
      from = this.pendingSplit;
    }
    if (head < from) {
      if (!this.progress.caughtUp)
        this.log.info(
          { chain_id: this.chainId, height: this.tip?.number ?? null },
          "Caught up with the chain head",
        );
      this.progress.caughtUp = true;
      return false;
    }
    this.progress.caughtUp = head - from < options.batchSize;
    try {
      await this.catchUp(from, head, signal);
    } finally {
      // A step ends level: the trailing stages have written every batch it committed.
      await this.trail.settle(this.tip?.number ?? null);
    }
    return true;
  }

  private async fetchRange(from: number, to: number, pace?: () => Promise<void>): Promise<FetchedBlock[]> {
    const { rpc, caps } = this.deps;
    return withRetry(
      async () => {
        const numbers = Array.from({ length: to - from + 1 }, (_, i) => from + i);
        const blocks = await Promise.all(
          numbers.map((n) => fetchForStages(rpc, n, caps, this.extensions, pace)),
        );
        for (let i = 1; i < blocks.length; i++) {
          if (blocks[i]!.block.parentHash !== blocks[i - 1]!.block.hash)
            throw new InconsistentBlockError(`Blocks ${from}..${to} changed while they were fetched.`);
        }
        return blocks;
      },
      {
        attempts: 6,
        onRetry: (e, attempt) =>
          this.log.debug({ err: e, from, to, attempt }, "Fetching blocks failed; retrying"),
      },
    );
  }

  /**
   * Fetches the ranges of [from .. to] concurrently (`INDEX_CONCURRENCY` in flight) and hands them to `consume`
   * strictly in order; stops when `consume` returns false. With `pace` (history beside the API), each range is
   * launched, and each fetched block derived, only after `pace` resolves; while the API is in use, one smaller range
   * at a time.
   */
  private async inOrder(
    from: number,
    to: number,
    rate: number[],
    consume: (batch: FetchedBlock[]) => Promise<boolean>,
    signal?: AbortSignal,
    pace?: () => Promise<void>,
  ): Promise<void> {
    const { fetchConcurrency } = this.deps.options;
    let next = from;
    const inflight: Array<Promise<FetchedBlock[]>> = [];
    const launch = async () => {
      for (;;) {
        // While the API is in use, one small range at a time: fewer answers of the node to parse under a request.
        const small = pace !== undefined && this.apiInUse();
        if (inflight.length >= (small ? 1 : fetchConcurrency) || next > to || signal?.aborted) return;
        if (pace) await pace();
        const a = next;
        const b = Math.min(to, a + this.rangeSize(rate, small) - 1);
        const p = this.fetchRange(a, b, pace);
        p.catch(() => {}); // observed below, or dropped when we stop early
        inflight.push(p);
        next = b + 1;
      }
    };
    await launch();
    while (inflight.length > 0 && !signal?.aborted) {
      const batch = await inflight.shift()!;
      observeRows(rate, batch);
      if (!(await consume(batch))) return;
      await launch();
    }
  }

  /**
   * Rows (transactions + blocks) of the last blocks fetched, newest last: the rate the next range is sized by. The
   * head and history each have their own (a busy head says little about the history's blocks).
   */
  private readonly headRate: number[] = [];
  private readonly historyRate: number[] = [];

  /**
   * Blocks in the next range: `batchSize`, or with `batchTransactions` as many as hold about that many rows at
   * the rate seen so far (before any range is seen, a probe of a few blocks: a busy chain's first batch is then
   * not `batchSize` full blocks, and the head of a head-first start arrives sooner). `small`: history while the API
   * is in use, a fraction of that (each fetch, derivation and statement shorter for a request to wait behind).
   */
  private rangeSize(rate: readonly number[], small = false): number {
    const { batchSize, batchTransactions } = this.deps.options;
    const divisor = small ? PACE_RANGE_DIVISOR : 1;
    if (!batchTransactions) return Math.max(1, Math.round(batchSize / divisor));
    if (!rate.length) return Math.min(batchSize, PROBE_BLOCKS);
    const perBlock = rate.reduce((s, n) => s + n, 0) / rate.length;
    return Math.max(1, Math.min(batchSize, Math.round(batchTransactions / divisor / perBlock)));
  }

  /** The API of this process answered a request lately (history then goes in smaller ranges). */
  private apiInUse(): boolean {
    return this.deps.pacing?.busyWithin(PACE_BUSY_WITHIN_MS) ?? false;
  }

  /**
   * History's turn to give way: resolves when no API request is in flight (at once without pacing, or when the
   * head has a write waiting: the head never waits for the API through history).
   */
  private readonly giveWay = (): Promise<void> => {
    const pacing = this.deps.pacing;
    if (!pacing || this.headWaiting > 0 || (!pacing.busy && pacing.waiting === 0)) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const go = () => {
        this.givingWay.delete(go);
        resolve();
      };
      this.givingWay.add(go);
      void pacing.idle().then(go);
    });
  };

  /** A batch's transaction: pipelined where the database has it (the batch is the critical path of catching up). */
  private batchTransaction(fn: (tx: Tx) => Promise<void>): Promise<void> {
    const { db } = this.deps;
    return db.pipelinedTransaction ? db.pipelinedTransaction(fn) : db.transaction(fn);
  }

  /** `tx` whose every statement first gives way to the API (history's batch transaction). */
  private paced(tx: Tx): Tx {
    if (!this.deps.pacing) return tx;
    return {
      query: async (sql, params, opts) => {
        await this.giveWay();
        return tx.query(sql, params, opts);
      },
      exec: async (sql) => {
        await this.giveWay();
        return tx.exec(sql);
      },
      ...(tx.copyFrom
        ? {
            copyFrom: async (table: string, columns: readonly string[], tuples: Uint8Array) => {
              await this.giveWay();
              return tx.copyFrom!(table, columns, tuples);
            },
          }
        : {}),
      ...(tx.command
        ? {
            command: async (sql: string, params?: readonly unknown[]) => {
              await this.giveWay();
              return tx.command!(sql, params);
            },
          }
        : {}),
    };
  }

  /** Indexes the head segment (the whole index when not split) from `from` to `head`; stops at a reorg. */
  private async catchUp(from: number, head: number, signal?: AbortSignal): Promise<void> {
    await this.inOrder(
      from,
      head,
      this.headRate,
      async (batch) => {
        const first = batch[0]!.block;
        if (this.tip && this.pendingSplit === null && first.parentHash !== this.tip.hash) {
          await this.handleReorg();
          return false;
        }
        // Only a batch with more of the step after it leaves its trailing stages behind: the step's last one
        // writes them itself, so the index is whole whenever the head cursor reaches the head.
        await this.writeBatch(batch, Number(batch[batch.length - 1]!.block.number) < head);
        this.progress.update(this.tip!.number, null);
        return true;
      },
      signal,
    );
  }

  /** Runs `fn` after every write transaction this process started before it (head, history, reorg, join). */
  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.writing.then(fn, fn);
    this.writing = run.catch(() => {});
    return run;
  }

  /** A head write (batch, reorg) after every write before it; history stops giving way to the API meanwhile. */
  private headExclusive<T>(fn: () => Promise<T>): Promise<T> {
    this.headWaiting++;
    for (const go of [...this.givingWay]) go();
    let counted = true;
    const uncount = () => {
      if (counted) this.headWaiting--;
      counted = false;
    };
    return this.exclusive(async () => {
      uncount();
      return fn();
    }).finally(uncount);
  }

  /** `more`: more of the step follows (catching up), so the trailing stages may trail this batch. */
  private writeBatch(batch: FetchedBlock[], more: boolean): Promise<void> {
    return this.headExclusive(async () => {
      const { rpc, caps } = this.deps;
      const last = batch[batch.length - 1]!.block;
      const split = this.pendingSplit;
      const t0 = performance.now();
      const first = batch[0]!.block;
      // Checked again here: a join or a reorg may have moved the cursor while the batch waited its turn.
      if (split === null && this.tip && first.parentHash !== this.tip.hash)
        throw new InconsistentBlockError(`Block ${Number(first.number)} does not follow the indexed head.`);
      await this.trail.room();
      // Head first writes history beside the head: its transactions and the trailing ones would share rows.
      const trails = more && split === null && this.split === null && this.trail.usable;
      const before = Number(first.number) - 1;
      if (!trails) await this.trail.settle(this.tip?.number ?? null);
      const stages = trails ? this.leading : this.extensions;
      // Another writer's move is known only after the rollback: the cursors are read then.
      let reload = false;
      try {
        await this.batchTransaction(async (tx) => {
          if (split !== null) {
            await this.fence(tx);
            await splitCheckpoint(tx, split);
          }
          // The fence is the first statement (the checkpoint row locked before any write), but its answer is
          // awaited only before the checkpoint moves: the batch's writes go out behind it instead of waiting for a
          // round trip. Written on a checkpoint another writer moved, they fail or are rolled back with the batch.
          const tip = this.tip;
          const fenced = split === null ? readAhead(lockCheckpoint(tx, tip)) : Promise.resolve(true);
          try {
            await writeStages(tx, stages, batch, { rpc, caps });
          } catch (e) {
            if (await fenced.catch(() => true)) throw e;
            reload = true;
            throw movedError(tip);
          }
          if (!(await fenced)) throw await this.moved(tx, tip);
          if (trails) await this.trail.holdIn(tx, before);
          else await this.trail.closeIn(tx);
          await moveCheckpoint(tx, Number(last.number), last.hash);
          if (trails) this.trail.foldAhead(batch);
        });
      } catch (e) {
        this.trail.abandon();
        if (reload) await this.loadCursors(this.deps.db);
        throw e;
      }
      if (trails) this.trail.follow(batch, before);
      else this.trail.closed();
      if (split !== null) {
        this.split = { headStart: split, history: this.tip };
        this.pendingSplit = null;
        this.progress.history = {
          start: this.deps.options.startBlock,
          block: this.tip?.number ?? null,
          headStart: split,
        };
        this.log.info(
          { head_start: split, history_block: this.tip?.number ?? null },
          "Indexing the head first; history catches up beside it",
        );
      }
      this.tip = { number: Number(last.number), hash: last.hash };
      this.deps.onBatch?.(batch.length, performance.now() - t0);
      this.log.debug({ from: Number(batch[0]!.block.number), to: this.tip.number }, "Committed blocks");
      for (const x of stages) x.afterCommit?.(this.tip.number);
    });
  }

  /** Reads both cursors from the database (at start, and when another writer moved one). */
  private async loadCursors(db: Queryable): Promise<void> {
    const s = await readState(db);
    this.tip = s?.lastBlock != null && s.lastHash ? { number: s.lastBlock, hash: s.lastHash } : null;
    this.split =
      s?.headStart != null
        ? {
            headStart: s.headStart,
            history:
              s.historyBlock != null && s.historyHash
                ? { number: s.historyBlock, hash: s.historyHash }
                : null,
          }
        : null;
    this.pendingSplit = null;
    this.progress.history =
      this.split && s
        ? { start: s.startBlock, block: this.split.history?.number ?? null, headStart: this.split.headStart }
        : null;
  }

  /** Starts the history writer when the index is split and it is not running. */
  private startHistory(signal: AbortSignal): void {
    if (!this.split || this.historyRun) return;
    this.historyRun = this.runHistory(signal).finally(() => {
      this.historyRun = null;
    });
  }

  /** Catches history up to the head segment, then joins them; retries transient failures like the head. */
  private async runHistory(signal: AbortSignal): Promise<void> {
    let failures = 0;
    while (!signal.aborted && this.split) {
      try {
        await this.historyStep(this.split, signal);
        failures = 0;
      } catch (e) {
        if (e instanceof FatalIndexerError) {
          this.historyFatal = e;
          return;
        }
        failures++;
        const delay = Math.min(30_000, 500 * 2 ** Math.min(failures, 6));
        this.log.warn({ err: e, retry_in_ms: delay }, "Indexing history failed; retrying");
        await sleep(delay, signal);
      }
    }
  }

  private async historyStep(split: Split, signal: AbortSignal): Promise<void> {
    const from = split.history ? split.history.number + 1 : this.deps.options.startBlock;
    const to = split.headStart - 1;
    await this.inOrder(
      from,
      to,
      this.historyRate,
      async (batch) => {
        if (this.split !== split) return false;
        const first = batch[0]!.block;
        // History is far below any reorganisation: a gap here is a node that changed its answer meanwhile.
        if (split.history && first.parentHash !== split.history.hash)
          throw new InconsistentBlockError(
            `Block ${Number(first.number)} does not follow the indexed history.`,
          );
        // A range fetched before the API got busy is written in the smaller ranges of a busy API: a request then
        // shares the machine with one short transaction, not with the whole range's.
        const size = this.apiInUse() ? this.rangeSize(this.historyRate, true) : batch.length;
        for (let i = 0; i < batch.length; i += size) {
          if (this.split !== split) return false;
          await this.writeHistoryBatch(split, batch.slice(i, i + size));
        }
        return true;
      },
      signal,
      this.deps.pacing ? this.giveWay : undefined,
    );
    if (this.split === split && !signal.aborted && (split.history?.number ?? from - 1) === to)
      await this.join(split, signal);
  }

  private writeHistoryBatch(split: Split, batch: FetchedBlock[]): Promise<void> {
    return this.exclusive(async () => {
      const { rpc, caps } = this.deps;
      const last = batch[batch.length - 1]!.block;
      const t0 = performance.now();
      await this.trail.settle(this.tip?.number ?? null);
      await this.giveWay();
      await this.batchTransaction(async (raw) => {
        const tx = this.paced(raw);
        await this.historyFence(tx, split);
        await writeStages(tx, this.extensions, batch, { rpc, caps, history: true });
        await moveHistory(tx, Number(last.number), last.hash);
      });
      split.history = { number: Number(last.number), hash: last.hash };
      if (this.progress.history) this.progress.history.block = split.history.number;
      this.deps.onBatch?.(batch.length, performance.now() - t0);
      this.log.debug({ from: Number(batch[0]!.block.number), to: split.history.number }, "Committed history");
      for (const x of this.extensions) x.afterCommit?.(split.history.number);
    });
  }

  /**
   * History reached the head segment. In one transaction: the head segment's rows are undone (every stage's
   * revert, as for a reorganisation down to the block before it), and its blocks fetched again and written in
   * order on top of the complete history, so every table ends as a clean sequential index would have it. Readers
   * see the head segment throughout (the old rows until the commit, the new ones after).
   */
  private join(split: Split, signal: AbortSignal): Promise<void> {
    return this.exclusive(async () => {
      const { db, rpc, caps } = this.deps;
      if (this.split !== split || !split.history) return;
      const base = split.history;
      const tip = this.tip;
      const t0 = performance.now();
      await this.trail.settle(tip?.number ?? null);
      await db.transaction(async (tx) => {
        await this.historyFence(tx, split);
        if (!(await lockCheckpoint(tx, tip))) throw await this.moved(tx, tip);
        await this.revertAll(tx, split.headStart - 1);
        let parent = base;
        if (tip) {
          await this.inOrder(
            split.headStart,
            tip.number,
            this.headRate,
            async (batch) => {
              const first = batch[0]!.block;
              const last = batch[batch.length - 1]!.block;
              if (first.parentHash !== parent.hash)
                throw new InconsistentBlockError(`The head segment changed while history joined it.`);
              await writeStages(tx, this.extensions, batch, { rpc, caps, history: true });
              parent = { number: Number(last.number), hash: last.hash };
              return true;
            },
            signal,
          );
          // The head cursor is where it was: a reorganisation meanwhile is the head writer's to handle first.
          if (parent.number !== tip.number || parent.hash !== tip.hash)
            throw new InconsistentBlockError(`The head moved while history joined it; joining again.`);
        }
        await joinCheckpoint(tx, parent.number, parent.hash);
      });
      this.trail.closed();
      this.split = null;
      this.progress.history = null;
      this.tip = tip ?? base;
      this.log.info(
        {
          head_start: split.headStart,
          rewritten: tip ? tip.number - split.headStart + 1 : 0,
          ms: Math.round(performance.now() - t0),
        },
        "History caught up with the head; the index is one range again",
      );
      for (const x of this.extensions) x.afterCommit?.(this.tip.number);
    });
  }

  /** First statement of every write: the checkpoint must still be the tip this indexer holds (see lease.ts). */
  private async fence(tx: Tx): Promise<void> {
    if (await lockCheckpoint(tx, this.tip)) return;
    throw await this.moved(tx, this.tip);
  }

  /** The history writer's fence: its cursor and the head segment's start are still what this indexer holds. */
  private async historyFence(tx: Tx, split: Split): Promise<void> {
    if (await lockHistory(tx, split.headStart, split.history)) return;
    throw await this.moved(tx, this.tip);
  }

  /**
   * Another writer moved a cursor (the previous lease holder's last batch landed after we read it): nothing is
   * written; the cursors are read again after the rollback and the step retried from there.
   */
  private async moved(tx: Tx, tip: Tip): Promise<LookoutError> {
    await this.loadCursors(tx);
    return movedError(tip);
  }

  /** After `trail.settle`: the trailing stages are level with the tip, and their cursor goes with the blocks. */
  private async revertAll(tx: Tx, ancestor: number) {
    // Last written, first undone: an extension may read rows written before its own (counters) to undo itself.
    for (const x of [...this.extensions].reverse()) await x.revert(tx, ancestor);
    await this.trail.closeIn(tx);
  }

  /**
   * Walks back from the stored tip to the newest block the node still has, and deletes everything above it. While
   * history catches up, only the head segment is walked: when the node has none of it, the whole segment goes and
   * is indexed again from its start.
   */
  private handleReorg(): Promise<void> {
    return this.headExclusive(async () => {
      const { db, rpc, options } = this.deps;
      const tip = this.tip;
      if (!tip) return;
      const floor = this.split?.headStart ?? options.startBlock;
      const lowest = Math.max(floor, tip.number - options.reorgDepth);
      let ancestor: { number: number; hash: Hash } | null = null;
      const chunk = 32;
      for (let hi = tip.number; hi >= lowest && !ancestor; hi -= chunk) {
        const lo = Math.max(lowest, hi - chunk + 1);
        const stored = await storedHashes(db, lo, hi);
        const nodeBlocks = await Promise.all(
          Array.from({ length: hi - lo + 1 }, (_, i) =>
            rpc.request<RpcBlock | null>("eth_getBlockByNumber", [toQuantity(hi - i), false]),
          ),
        );
        for (const b of nodeBlocks) {
          if (b && stored.get(Number(b.number)) === b.hash) {
            ancestor = { number: Number(b.number), hash: b.hash };
            break;
          }
        }
      }
      const wholeSegment = !ancestor && this.split !== null && lowest === floor;
      if (!ancestor && !wholeSegment) {
        throw new FatalIndexerError({
          code: "reorg_too_deep",
          shortMessage: `The chain reorganised deeper than REORG_DEPTH (${options.reorgDepth} blocks below ${tip.number}), or the node now serves another chain.`,
          metaMessages: ["Raise REORG_DEPTH and restart, or re-index into an empty database."],
        });
      }
      const a = ancestor;
      const to = a ? a.number : floor - 1;
      await this.trail.settle(tip.number);
      await db.transaction(async (tx) => {
        await this.fence(tx);
        await this.revertAll(tx, to);
        await moveCheckpoint(tx, a?.number ?? null, a?.hash ?? null);
      });
      this.trail.closed();
      this.log.info(
        { chain_id: this.chainId, depth: tip.number - to, ancestor: to, old_tip: tip.number },
        "Reorged blocks",
      );
      this.tip = a;
      this.progress.update(a?.number ?? null, null);
    });
  }
}
