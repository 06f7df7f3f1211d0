import type { Rpc } from "../../chain/rpc.js";
import { indexedChainId } from "../../chain-store/checkpoint.js";
import { type ChainConfig, withIndexedChain } from "../../config/chains.js";
import type { Config } from "../../config/config.js";
import type { Db } from "../../db/db.js";
import type { Metrics } from "../../metrics/registry.js";
import type { Logger } from "../../util/logger.js";
import type { VerifierApi } from "../../verifier/api.js";
import { createChainClients, type VerifierChain } from "../../verifier/chain-clients.js";
import { type CompilerRegistry, createCompilers } from "../../verifier/compilers/index.js";
import {
  createJobRunner,
  type Job,
  type JobOutcome,
  type JobRunner,
  queueStats,
} from "../../verifier/jobs/index.js";
import { type VerifyRequest, verify } from "../../verifier/service/index.js";

/** The request-independent settings of `verify` (VERIFIER_* settings). */
export function verifySettings(config: Config) {
  return { creationLookup: creationLookupOptions(config), asyncCommit: config.verifierAsyncCommit };
}

/** How a verification finds a contract's creation when the index does not have it yet (VERIFIER_* settings). */
export function creationLookupOptions(config: Config) {
  return { indexWaitMs: config.verifierIndexWaitMs, maxCalls: config.verifierLookupMaxCalls };
}

export type VerifierPart = {
  /** The verifier as the HTTP front doors use it (src/verifier/api.ts): built once, with the one bound `verify`. */
  api: VerifierApi;
  /** Verifier chains by id; updated in place when the indexed chain becomes known (see `watchIndexedChain`). */
  chains: Map<string, VerifierChain>;
  compilers: CompilerRegistry;
  /** Queues jobs always; claims and runs them only when `runJobs`. */
  jobs: JobRunner;
  stop(): Promise<void>;
};

/**
 * Chains, compilers and the verification job queue. The indexed chain is always a verifier chain; a process that
 * does not index learns its id from the database, also after start (a `serve` started before the indexer's first
 * write picks the chain up within `pollMs`).
 */
export async function startVerifier(o: {
  config: Config;
  db: Db;
  rpc: Rpc | null;
  rpcUrl: string | undefined;
  configuredChains: ChainConfig[];
  runJobs: boolean;
  logger: Logger;
  metrics: Metrics;
  pollMs?: number;
  /** Told of every finished verification job (live updates report it on the socket). */
  onJobFinished?: (job: Job, outcome: JobOutcome) => void;
}): Promise<VerifierPart> {
  const { config, db } = o;
  const chains = new Map<string, VerifierChain>();
  let indexedId: number | null = null;
  const refresh = async () => {
    const id = await indexedChainId(db);
    if (id === indexedId && chains.size > 0) return;
    const known = indexedId;
    indexedId = id;
    const list = withIndexedChain(
      o.configuredChains,
      id !== null && o.rpcUrl ? { id: String(id), name: config.chainName, rpcUrl: o.rpcUrl } : null,
    );
    const next = createChainClients(list, {
      batchSize: config.rpcBatchSize,
      timeoutMs: config.rpcTimeoutMs,
      retries: config.rpcRetries,
    });
    chains.clear();
    for (const [k, v] of next) chains.set(k, v);
    if (id !== null && id !== known && o.rpcUrl)
      o.logger.info({ chain_id: id }, "Verifying contracts of the indexed chain");
  };
  await refresh();
  const watcher = setInterval(
    () => void refresh().catch((err: unknown) => o.logger.warn({ err }, "Could not read the indexed chain")),
    o.pollMs ?? 2000,
  );
  watcher.unref();

  const compilers = createCompilers(
    {
      compilersDir: config.compilersDir,
      solcListUrl: config.solcListUrl,
      solcjsListUrl: config.solcjsListUrl,
      ...(config.vyperListUrl ? { vyperListUrl: config.vyperListUrl } : {}),
      concurrency: config.compilerConcurrency,
      timeoutMs: config.compilerTimeoutMs,
      memoryLimitMb: config.compilerMemoryMb,
    },
    o.logger.child({ part: "compilers" }),
  );
  // Discovery (lists, installed solc-js) goes on in the background, logging its progress: the HTTP server answers
  // meanwhile, and whatever needs the compilers (verify requests, jobs, the version lists) waits on `settled()`.
  const bound = (req: VerifyRequest) => verify({ chains, compilers, db, ...verifySettings(config) }, req);
  const jobs = createJobRunner({
    db,
    verify: bound,
    concurrency: Math.max(1, Math.min(4, config.compilerConcurrency)),
    leaseMs: config.jobLeaseMs,
    onFinished: (job, outcome, ms) => {
      o.metrics.jobFinished(outcome.result, ms);
      o.onJobFinished?.(job, outcome);
    },
    logger: o.logger.child({ part: "verification-jobs" }),
  });
  o.metrics.sources.queue = () => queueStats(db);
  if (o.runJobs) await jobs.start();
  return {
    api: { db, chains, compilers, jobs, verify: bound },
    chains,
    compilers,
    jobs,
    async stop() {
      clearInterval(watcher);
      // Jobs stop before the compilers close; a job cut short goes back to the queue.
      await jobs.stop();
      await compilers.close();
    },
  };
}
