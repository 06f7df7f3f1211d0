import type { Hash } from "viem";
import type { NodeCapabilities } from "../../chain/capabilities.js";
import { fetchBlock, toQuantity } from "../../chain/fetch-block.js";
import { type Rpc, sleep, withRetry } from "../../chain/rpc.js";
import type { FetchedBlock, RpcBlock } from "../../chain/types.js";
import {
  initState,
  lockCheckpoint,
  moveCheckpoint,
  readState,
  storedHashes,
} from "../../chain-store/checkpoint.js";
import type { Db } from "../../db/db.js";
import { LookoutError } from "../../errors/base.js";
import type { Logger } from "../../util/logger.js";
import { FatalIndexerError, InconsistentBlockError } from "./errors.js";
import type { IndexerExtension } from "./extension.js";
import { Progress } from "./progress.js";

export type IndexerOptions = {
  startBlock: number;
  reorgDepth: number;
  batchSize: number;
  fetchConcurrency: number;
  pollIntervalMs: number;
  /** Local development chain: a different chain behind the URL wipes the index instead of stopping. */
  resetOnNewChain?: boolean;
};

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
};

type Tip = { number: number; hash: Hash } | null;

/**
 * Joins sync and the stages: catches up from the checkpoint to the head with concurrent range fetches, each
 * written in order by every stage (one transaction per range, checkpoint moved in it), then follows the head, detecting
 * reorganisations by parent hash and by re-checking the stored tip. No SQL and no JSON-RPC shapes here.
 */
export class Indexer {
  readonly progress = new Progress();
  chainId: number | null = null;
  private tip: Tip = null;
  private readonly extensions: readonly IndexerExtension[];

  constructor(private readonly deps: IndexerDeps) {
    this.extensions = deps.extensions;
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
    const s = await readState(db);
    this.tip = s?.lastBlock != null && s.lastHash ? { number: s.lastBlock, hash: s.lastHash } : null;
    this.progress.update(this.tip?.number ?? null, null);
    this.log.info(
      {
        chain_id: this.chainId,
        checkpoint: this.tip?.number ?? null,
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
    let failures = 0;
    while (!signal.aborted) {
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
    const from = this.tip ? this.tip.number + 1 : options.startBlock;
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
    await this.catchUp(from, head, signal);
    return true;
  }

  private async fetchRange(from: number, to: number): Promise<FetchedBlock[]> {
    const { rpc, caps } = this.deps;
    return withRetry(
      async () => {
        const numbers = Array.from({ length: to - from + 1 }, (_, i) => from + i);
        const blocks = await Promise.all(
          numbers.map(async (n) => {
            const [fetched, ...extras] = await Promise.all([
              fetchBlock(rpc, n, caps),
              ...this.extensions.map((x) => (x.fetchBlock ? x.fetchBlock(rpc, n, caps) : undefined)),
            ]);
            this.extensions.forEach((x, i) => {
              if (x.fetchBlock) fetched.extra[x.name] = extras[i];
            });
            await Promise.all(
              this.extensions.map(async (x) => {
                if (x.afterFetch) fetched.extra[x.name] = await x.afterFetch(rpc, fetched, caps);
              }),
            );
            return fetched;
          }),
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

  /** Fetches ranges concurrently, writes them strictly in order; stops at a parent-hash mismatch. */
  private async catchUp(from: number, head: number, signal?: AbortSignal): Promise<void> {
    const { batchSize, fetchConcurrency } = this.deps.options;
    let next = from;
    const inflight: Array<Promise<FetchedBlock[]>> = [];
    const launch = () => {
      while (inflight.length < fetchConcurrency && next <= head) {
        const a = next;
        const b = Math.min(head, a + batchSize - 1);
        const p = this.fetchRange(a, b);
        p.catch(() => {}); // observed below, or dropped when we stop early
        inflight.push(p);
        next = b + 1;
      }
    };
    launch();
    while (inflight.length > 0 && !signal?.aborted) {
      const batch = await inflight.shift()!;
      const first = batch[0]!.block;
      if (this.tip && first.parentHash !== this.tip.hash) {
        await this.handleReorg();
        return;
      }
      await this.writeBatch(batch);
      this.progress.update(this.tip!.number, null);
      launch();
    }
  }

  private async writeBatch(batch: FetchedBlock[]): Promise<void> {
    const { db, rpc, caps } = this.deps;
    const last = batch[batch.length - 1]!.block;
    const t0 = performance.now();
    await db.transaction(async (tx) => {
      await this.fence(tx);
      for (const x of this.extensions) await x.write(tx, batch, { rpc, caps });
      await moveCheckpoint(tx, Number(last.number), last.hash);
    });
    this.tip = { number: Number(last.number), hash: last.hash };
    this.deps.onBatch?.(batch.length, performance.now() - t0);
    this.log.debug({ from: Number(batch[0]!.block.number), to: this.tip.number }, "Committed blocks");
    for (const x of this.extensions) x.afterCommit?.(this.tip.number);
  }

  /** First statement of every write: the checkpoint must still be the tip this indexer holds (see lease.ts). */
  private async fence(tx: Parameters<Parameters<Db["transaction"]>[0]>[0]): Promise<void> {
    if (await lockCheckpoint(tx, this.tip)) return;
    // Another writer moved it (the previous lease holder's last batch landed after we read the tip): nothing is
    // written; the tip is read again and the step retried from there.
    const s = await readState(tx);
    this.tip = s?.lastBlock != null && s.lastHash ? { number: s.lastBlock, hash: s.lastHash } : null;
    throw new LookoutError({
      code: "checkpoint_moved",
      shortMessage: `Another indexer moved the checkpoint (now ${this.tip?.number ?? "none"}); continuing from it.`,
    });
  }

  private async revertAll(tx: Parameters<Parameters<Db["transaction"]>[0]>[0], ancestor: number) {
    // Last written, first undone: an extension may read rows written before its own (counters) to undo itself.
    for (const x of [...this.extensions].reverse()) await x.revert(tx, ancestor);
  }

  /** Walks back from the stored tip to the newest block the node still has, and deletes everything above it. */
  private async handleReorg(): Promise<void> {
    const { db, rpc, options } = this.deps;
    const tip = this.tip!;
    const lowest = Math.max(options.startBlock, tip.number - options.reorgDepth);
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
    if (!ancestor) {
      throw new FatalIndexerError({
        code: "reorg_too_deep",
        shortMessage: `The chain reorganised deeper than REORG_DEPTH (${options.reorgDepth} blocks below ${tip.number}), or the node now serves another chain.`,
        metaMessages: ["Raise REORG_DEPTH and restart, or re-index into an empty database."],
      });
    }
    const a = ancestor;
    await db.transaction(async (tx) => {
      await this.fence(tx);
      await this.revertAll(tx, a.number);
      await moveCheckpoint(tx, a.number, a.hash);
    });
    this.log.info(
      { chain_id: this.chainId, depth: tip.number - a.number, ancestor: a.number, old_tip: tip.number },
      "Reorged blocks",
    );
    this.tip = a;
    this.progress.update(a.number, null);
  }
}
