import type { Anvil } from "../../chain/anvil.js";
import { detectCapabilities, type NodeCapabilities } from "../../chain/capabilities.js";
import { type Rpc, sleep, withRetry } from "../../chain/rpc.js";
import { markLocalChain } from "../../chain-store/checkpoint.js";
import type { Config } from "../../config/config.js";
import type { Db } from "../../db/db.js";
import { isTransientDbError } from "../../db/failures.js";
import { LookoutError } from "../../errors/base.js";
import type { EventBus } from "../../events/bus.js";
import { FatalIndexerError } from "../../indexer/pipeline/errors.js";
import {
  advisoryLockLease,
  type IndexerLease,
  type LockSession,
  singleProcessLease,
} from "../../indexer/pipeline/lease.js";
import { reportProgress } from "../../indexer/pipeline/progress.js";
import { Indexer } from "../../indexer/pipeline/runtime.js";
import { indexerStages } from "../../indexer/stages/index.js";
import type { Metrics } from "../../metrics/registry.js";
import type { Logger } from "../../util/logger.js";
import type { RequestActivity } from "../../util/request-activity.js";
import { INDEXER_STOP_WAIT_MS, within } from "../../util/shutdown.js";

export type IndexerPart = {
  indexer: Indexer;
  lease: IndexerLease;
  /** Resolves when the indexer stops; rejects on a fatal error (a lost lease is retaken, not fatal). */
  done: Promise<void>;
  stop(): Promise<void>;
};

/** The lock connection failed: this process stopped writing and competes for the lease again. */
class LeaseLostError extends LookoutError {
  override name = "LeaseLostError";
  constructor() {
    super({
      code: "lease_lost",
      shortMessage: "Lost the indexing lease (the database connection holding it failed); stopped writing.",
    });
  }
}

const unreachable = (rpc: Rpc, cause: unknown) =>
  new LookoutError({
    code: "rpc_unreachable",
    shortMessage: `Cannot reach the chain at RPC_URL (${rpc.url}).`,
    cause,
  });

type IndexerRoleDeps = {
  config: Config;
  db: Db;
  rpc: Rpc;
  anvil: Anvil | null;
  reset: boolean;
  logger: Logger;
  metrics: Metrics;
  /** Where committed batches are told (the sockets and the token workers listen). */
  bus: EventBus;
  /** The indexing lease's lock, for a further chain of a multichain deployment (default: the first chain's). */
  leaseKey?: readonly [number, number];
  /** The API's requests in flight in this process (`start`): history catching up gives way to them. */
  pacing?: RequestActivity;
  /** The lock connection the chains of a deployment share (default: the lease's own). */
  lockSession?: LockSession;
};

/** The node answers and tells what it can (traces); a failure here stops the role. */
async function firstContact(rpc: Rpc, config: Config): Promise<NodeCapabilities> {
  await withRetry(() => rpc.request("eth_chainId", []), { attempts: 3 }).catch((cause) => {
    throw unreachable(rpc, cause);
  });
  return detectCapabilities(rpc, { traces: config.traces, chainType: config.chainType }).catch((cause) => {
    throw unreachable(rpc, cause);
  });
}

/** The indexer running every stage of indexer/stages, with the role's settings. */
function createIndexer(o: IndexerRoleDeps, caps: NodeCapabilities, log: Logger): Indexer {
  const { config, db } = o;
  const indexer: Indexer = new Indexer({
    db,
    rpc: o.rpc,
    caps,
    logger: log,
    extensions: indexerStages({
      logger: o.logger,
      bus: o.bus,
      // Other processes on the same PostgreSQL database hear of each batch by NOTIFY.
      notify: db.kind === "postgres",
      // The head the indexer last saw: the socket's indexing status.
      head: () => indexer.progress.head,
    }),
    onBatch: (n, ms) => o.metrics.batchWritten(n, ms),
    ...(o.pacing ? { pacing: o.pacing } : {}),
    options: {
      startBlock: config.startBlock,
      // A local chain restarted from its last save may be behind the index by what a `kill -9` lost: the indexer
      // rewinds to the saved head however far that is, as for a reorganisation, and keeps the rest.
      reorgDepth: o.anvil ? Number.MAX_SAFE_INTEGER : config.reorgDepth,
      batchSize: config.batchSize,
      batchTransactions: config.batchTransactions,
      fetchConcurrency: config.fetchConcurrency,
      // The local anvil's blocks arrive one by one as they are mined: nothing to put off there.
      headFirstBlocks: o.anvil ? 0 : config.headFirstBlocks,
      pollIntervalMs: config.pollIntervalMs,
      // A new local chain (no saved state, `--reset`, or a damaged save) replaces the old local index (chain.ts).
      resetOnNewChain: o.anvil !== null || o.reset,
    },
  });
  return indexer;
}

/**
 * The indexer of a role: takes the indexing lease first (one active indexer per database; the others stand by
 * and take over when the holder dies), then reads the checkpoint from the database and indexes. A process that
 * gets the lease at once starts like a single indexer always did (errors of the first contact stop it); a
 * standby waits in the background.
 */
export async function startIndexer(o: IndexerRoleDeps): Promise<IndexerPart> {
  const { config, db, rpc, logger } = o;
  const caps = await firstContact(rpc, config);
  const lease =
    db.kind === "postgres" && config.databaseUrl
      ? advisoryLockLease(config.databaseUrl, config.leasePollMs, o.leaseKey, o.lockSession)
      : singleProcessLease();
  const log = logger.child({ part: "indexer" });
  const indexer = createIndexer(o, caps, log);
  o.metrics.sources.head = () => indexer.progress.head;
  o.metrics.sources.leaseHeld = () => lease.held();

  const controller = new AbortController();
  const init = async (signal: AbortSignal = controller.signal) => {
    await indexer.init(signal).catch((cause) => {
      if (cause instanceof LookoutError || isTransientDbError(cause)) throw cause;
      throw unreachable(rpc, cause);
    });
    if (o.anvil) await markLocalChain(db);
  };
  const held = await lease.tryAcquire().catch((cause) => {
    throw new LookoutError({
      code: "database_unavailable",
      shortMessage: "Cannot take the indexing lease.",
      cause,
    });
  });
  if (held) await init();
  else log.info("Another indexer holds the indexing lease of this database; standing by to take over");

  let stopProgress = () => {};
  const running = (async () => {
    let ready = held;
    let failures = 0;
    while (!controller.signal.aborted) {
      if (!lease.held()) {
        if (!(await lease.acquire(controller.signal))) return;
        log.info("Took over the indexing lease; resuming from the stored checkpoint");
        ready = false;
      }
      // One term of holding the lease: it ends when the lease is lost or the process stops.
      const term = new AbortController();
      const stop = () => term.abort();
      controller.signal.addEventListener("abort", stop, { once: true });
      const lost = lease.lost().then(() => {
        term.abort();
        throw new LeaseLostError();
      });
      const work = (async () => {
        // Another holder may have moved the checkpoint meanwhile: read it again.
        if (!ready) await init(term.signal);
        ready = true;
        failures = 0;
        stopProgress();
        stopProgress = reportProgress(indexer.progress, logger);
        await indexer.run(term.signal);
      })();
      try {
        await Promise.race([work, lost]);
        if (controller.signal.aborted) return;
        throw new LeaseLostError();
      } catch (e) {
        if (e instanceof FatalIndexerError) throw e;
        // A lost lease, or a database or node failure while taking over: stop writing (the batch in flight ends
        // first, fenced by the checkpoint), let go of the lock, and compete for it again like any standby.
        term.abort();
        await work.catch(() => {});
        await lease.release();
        ready = false;
        failures++;
        indexer.progress.lastError =
          e instanceof LeaseLostError
            ? e.shortMessage
            : e instanceof Error
              ? e.message.split("\n")[0]!
              : String(e);
        log.warn(
          { err: e instanceof LeaseLostError ? undefined : e, lease_losses: lease.losses().count },
          `${indexer.progress.lastError} Standing by to take the indexing lease again.`,
        );
        // At least two polls: a standby that is polling wins the lease first (this process's connections may be
        // the ones in trouble); alone, this process takes it back right after.
        const backoff = Math.min(10_000, 250 * 2 ** Math.min(failures, 6));
        await sleep(Math.max(backoff, 2 * config.leasePollMs), controller.signal);
      } finally {
        controller.signal.removeEventListener("abort", stop);
        lost.catch(() => {});
      }
    }
  })();
  const done = running.then(
    () => {},
    (e) => {
      logger.fatal({ err: e }, e instanceof LookoutError ? e.shortMessage : "Indexer stopped");
      throw e;
    },
  );
  done.catch(() => {});
  return {
    indexer,
    lease,
    done,
    async stop() {
      controller.abort();
      stopProgress();
      // Wait for the batch in flight: its transaction commits or rolls back before the database closes. A fetch
      // from a node that stopped answering holds nothing written: not waited for beyond a few seconds.
      await within(running, INDEXER_STOP_WAIT_MS);
      await indexer.stopExtensions();
      await lease.release();
    },
  };
}
