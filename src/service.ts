import { join } from "node:path";
import type { Anvil } from "./chain/anvil.js";
import type { Rpc } from "./chain/rpc.js";
import { loadChainsConfig } from "./config/chains.js";
import type { Config } from "./config/config.js";
import type { Db } from "./db/db.js";
import { LookoutError } from "./errors/base.js";
import { loadPublicTags } from "./explorer/address/tags.js";
import type { App } from "./http/app.js";
import type { HealthSources } from "./http/health.js";
import type { Indexer } from "./indexer/runtime.js";
import { startLiveUpdates } from "./live/index.js";
import { verificationResultOf } from "./live/verification-result.js";
import { createMetrics, type Metrics } from "./metrics/registry.js";
import { startChain } from "./roles/chain.js";
import { openDatabases } from "./roles/database.js";
import { rpcHead, startApiHttp, startOpsHttp } from "./roles/http.js";
import { type IndexerPart, startIndexer } from "./roles/indexer.js";
import { startTokenWork } from "./roles/token-work.js";
import { startVerifier, type VerifierPart } from "./roles/verifier.js";
import type { Logger } from "./util/logger.js";
import type { VerifierChain } from "./verifier/chain-clients.js";
import type { CompilerRegistry } from "./verifier/compilers/index.js";
import { createVerifiedContractLookup } from "./verifier/store/index.js";

export type RoleName = "start" | "index" | "serve" | "work";

/**
 * What one process runs. `start` = index + serve (+ jobs) in one process; `index` the indexer; `serve` the HTTP
 * API (with or without verification jobs); `work` verification jobs and token work, no API.
 */
export type Mode = {
  http: boolean;
  indexer: boolean;
  role?: RoleName;
  /** Run verification jobs here (default: JOBS). */
  jobs?: boolean;
  /** Apply migrations (default: `start` and `index` do, `serve` and `work` only check the schema). */
  migrate?: boolean;
  /** Allow replacing the index of another chain (`--reset`). */
  reset?: boolean;
};

export type Service = {
  role: RoleName;
  app: App | null;
  indexer: Indexer | null;
  anvil: Anvil | null;
  db: Db;
  rpc: Rpc | null;
  compilers: CompilerRegistry | null;
  chains: Map<string, VerifierChain>;
  metrics: Metrics;
  /** Resolves when the indexer stops by itself (a fatal error) — never for a healthy service. */
  done: Promise<void>;
  stop(): Promise<void>;
};

export function roleOf(mode: Mode): RoleName {
  return (
    mode.role ?? (mode.http && mode.indexer ? "start" : mode.http ? "serve" : mode.indexer ? "index" : "work")
  );
}

/**
 * Composes a role from its parts — database → chain → indexer → verifier (chains, compilers, jobs) → token work →
 * HTTP — and returns an ordered shutdown in reverse: stop accepting requests, stop claiming jobs, let the batch
 * in flight commit (or roll back), close the database, stop anvil.
 */
export async function startService(config: Config, mode: Mode, logger: Logger): Promise<Service> {
  const role = roleOf(mode);
  const cleanups: Array<() => Promise<void>> = [];
  const stopAll = async () => {
    for (const c of cleanups.reverse())
      await c().catch((e) => logger.warn({ err: e }, "Shutdown step failed"));
    cleanups.length = 0;
  };
  try {
    // Configuration files are validated before anything starts.
    const configuredChains = loadChainsConfig(config.chainsConfig);
    const metrics = createMetrics(role);
    const dbs = await openDatabases(config, {
      migrate: mode.migrate ?? (role === "start" || role === "index"),
      logger,
    });
    cleanups.push(() => dbs.close());
    const { db } = dbs;
    metrics.sources.height = async () =>
      (
        await dbs.readDb.query<{ h: number | null }>("select last_block as h from indexer_state where id = 1")
      )[0]?.h ?? null;
    const mustWrite = mode.indexer || role === "work";
    if (!dbs.writability.writable) {
      if (mustWrite)
        throw new LookoutError({
          code: "database_read_only",
          shortMessage: `\`lookout ${role}\` must write to DATABASE_URL, but ${dbs.writability.reason}.`,
        });
      logger.warn({ reason: dbs.writability.reason }, "Database is not writable: serving read-only, no jobs");
    }

    // Live updates (the socket): committed batches and finished verifications, in-process and across processes.
    const live = startLiveUpdates({
      db,
      databaseUrl: config.databaseUrl,
      logger: logger.child({ part: "live" }),
      serve: mode.http,
      addressDeps: {
        verified: createVerifiedContractLookup(dbs.readDb),
        tags: loadPublicTags(config.publicTagsFile),
        gateways: { ipfs: config.ipfsGatewayUrl, arweave: config.arweaveGatewayUrl },
      },
    });
    cleanups.push(() => live.stop());

    const chain = await startChain(config, {
      launchAnvil: role === "start",
      reset: mode.reset ?? false,
      db,
      metrics,
    });
    cleanups.push(() => chain.stop());
    const { rpc, anvil } = chain;

    let indexerPart: IndexerPart | null = null;
    if (mode.indexer && rpc) {
      indexerPart = await startIndexer({
        config,
        db,
        rpc,
        anvil,
        reset: mode.reset ?? false,
        logger,
        metrics,
        // The head the indexer last saw: the socket's indexing status.
        extraExtensions: [live.extension({ head: () => indexerPart?.indexer.progress.head ?? null })],
        onTokenChange: (change) => void live.publishTokenChange(change),
      });
      cleanups.push(() => indexerPart!.stop());
    }

    let verifier: VerifierPart | null = null;
    if (mode.http || role === "work") {
      verifier = await startVerifier({
        config,
        db,
        rpc,
        rpcUrl: rpc?.url,
        configuredChains,
        runJobs: (role === "work" || (mode.jobs ?? config.jobs)) && dbs.writability.writable,
        logger,
        metrics,
        onJobFinished: (job, outcome) =>
          void live.publishVerification(job.address, verificationResultOf(outcome)),
      });
      cleanups.push(() => verifier!.stop());
    }

    // Token properties and metadata: inside the indexer for `start`/`index` (woken after each commit), and on
    // `work`; claims in the tables let several processes share the work.
    if (role === "work") {
      const tokens = startTokenWork({
        config,
        db,
        rpc,
        logger,
        onChange: (change) => void live.publishTokenChange(change),
      });
      cleanups.push(() => tokens.stop());
    }

    const health: HealthSources = {
      role,
      writable: () => dbs.writability.writable,
      requiresWrite: mustWrite,
      ...(rpc ? { rpcHead: rpcHead(rpc) } : {}),
      ...(indexerPart
        ? {
            progress: indexerPart.indexer.progress,
            chainId: () => indexerPart!.indexer.chainId,
            lease: () => {
              const l = indexerPart!.lease;
              const losses = l.losses();
              return {
                held: l.held(),
                kind: l.kind,
                losses: losses.count,
                last_lost_at: losses.lastAt?.toISOString() ?? null,
              };
            },
          }
        : {}),
    };
    let app: App | null = null;
    if (mode.http && verifier) {
      const http = await startApiHttp({
        config,
        dbs,
        verifier,
        health,
        metrics,
        logger,
        live: {
          hub: live.hub,
          maxTopics: config.socketMaxTopics,
          maxSocketsPerClient: config.socketMaxPerClient,
        },
        ...(rpc ? { rpcUrl: rpc.url } : {}),
      });
      app = http.app;
      cleanups.push(() => http.stop());
    } else {
      const ops = await startOpsHttp({ config, dbs, health, metrics, logger });
      if (ops) cleanups.push(() => ops.stop());
    }
    return {
      role,
      app,
      indexer: indexerPart?.indexer ?? null,
      anvil,
      db,
      rpc,
      compilers: verifier?.compilers ?? null,
      chains: verifier?.chains ?? new Map(),
      metrics,
      done: indexerPart?.done ?? new Promise(() => {}),
      stop: stopAll,
    };
  } catch (e) {
    await stopAll();
    throw e;
  }
}

export const dataPath = (config: Config, ...parts: string[]) => join(config.dataDir, ...parts);
