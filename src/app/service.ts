import { join } from "node:path";
import type { Anvil } from "../chain/anvil.js";
import type { Rpc } from "../chain/rpc.js";
import { indexedRange } from "../chain-store/checkpoint.js";
import { loadChainsConfig } from "../config/chains.js";
import type { Config } from "../config/config.js";
import type { Db } from "../db/db.js";
import { LookoutError } from "../errors/base.js";
import { EventBus } from "../events/bus.js";
import type { TokenChange } from "../events/facts.js";
import { loadPublicTags } from "../explorer/objects/tags.js";
import type { Indexer } from "../indexer/pipeline/runtime.js";
import { type LiveUpdates, startLiveUpdates } from "../live/index.js";
import { verificationResultOf } from "../live/verification-result.js";
import { createMetrics, type Metrics } from "../metrics/registry.js";
import type { Logger } from "../util/logger.js";
import type { VerifierChain } from "../verifier/chain-clients.js";
import type { CompilerRegistry } from "../verifier/compilers/index.js";
import { createVerifiedContractLookup } from "../verifier/store/index.js";
import type { HealthSources } from "./health.js";
import type { App } from "./http-app.js";
import { startChain } from "./roles/chain.js";
import { type Databases, openDatabases } from "./roles/database.js";
import { rpcHead, startApiHttp, startOpsHttp } from "./roles/http.js";
import { type IndexerPart, startIndexer } from "./roles/indexer.js";
import { startTokenWork, startTokenWorkBesideIndexer } from "./roles/token-work.js";
import { startVerifier } from "./roles/verifier.js";

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

/** A part the service shuts down (in reverse order of start). */
type Stoppable = { stop(): Promise<void> };

/**
 * Composes a role from its parts — database → live updates → chain → indexer → verifier (chains, compilers, jobs)
 * → token work → HTTP — and returns an ordered shutdown in reverse: stop accepting requests, stop claiming jobs,
 * let the batch in flight commit (or roll back), close the database, stop anvil.
 */
export async function startService(config: Config, mode: Mode, logger: Logger): Promise<Service> {
  const role = roleOf(mode);
  const cleanups: Array<() => Promise<void>> = [];
  const started = <T extends Stoppable>(part: T): T => {
    cleanups.push(() => part.stop());
    return part;
  };
  const stopAll = async () => {
    for (const c of cleanups.reverse())
      await c().catch((e) => logger.warn({ err: e }, "Shutdown step failed"));
    cleanups.length = 0;
  };
  try {
    // Configuration files are validated before anything starts.
    const configuredChains = loadChainsConfig(config.chainsConfig);
    const metrics = createMetrics(role);
    const mustWrite = mode.indexer || role === "work";
    const dbs = await openRoleDatabases(config, mode, role, mustWrite, logger);
    cleanups.push(() => dbs.close());
    const { db } = dbs;
    metrics.sources.height = async () => (await indexedRange(dbs.readDb))?.lastBlock ?? null;

    // This process's facts (committed blocks, finished verifications, token changes) and who hears them.
    const bus = new EventBus();
    const live = started(startLive(config, dbs, bus, mode.http, logger));

    const chain = started(
      await startChain(config, { launchAnvil: role === "start", reset: mode.reset ?? false, db, metrics }),
    );
    const { rpc, anvil } = chain;

    const indexerPart =
      mode.indexer && rpc
        ? started(
            await startIndexer({ config, db, rpc, anvil, reset: mode.reset ?? false, logger, metrics, bus }),
          )
        : null;

    const verifier =
      mode.http || role === "work"
        ? started(
            await startVerifier({
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
            }),
          )
        : null;

    // Token properties and metadata: beside the indexer (`start`, `index`) and on `work`; claims in the tables let
    // several processes share the work.
    const tokenWork = {
      config,
      db,
      logger,
      bus,
      onChange: (c: TokenChange) => void live.publishTokenChange(c),
    };
    if (indexerPart && rpc)
      started(startTokenWorkBesideIndexer({ ...tokenWork, rpc, indexing: () => indexerPart.lease.held() }));
    else if (role === "work") started(startTokenWork({ ...tokenWork, rpc }));

    const health = healthSources(role, dbs, mustWrite, rpc, indexerPart);
    let app: App | null = null;
    if (mode.http && verifier) {
      const http = started(
        await startApiHttp({
          config,
          dbs,
          verifier,
          health,
          metrics,
          logger,
          live: { hub: live.hub },
          ...(rpc ? { rpcUrl: rpc.url } : {}),
        }),
      );
      app = http.app;
    } else {
      const ops = await startOpsHttp({ config, dbs, health, metrics, logger });
      if (ops) started(ops);
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

/**
 * The databases of a role: migrated by `start` and `index` unless told otherwise. A role that must write refuses
 * a read-only database; the others serve read-only, without jobs.
 */
async function openRoleDatabases(
  config: Config,
  mode: Mode,
  role: RoleName,
  mustWrite: boolean,
  logger: Logger,
): Promise<Databases> {
  const dbs = await openDatabases(config, {
    migrate: mode.migrate ?? (role === "start" || role === "index"),
    logger,
  });
  if (!dbs.writability.writable) {
    if (mustWrite) {
      await dbs.close();
      throw new LookoutError({
        code: "database_read_only",
        shortMessage: `\`lookout ${role}\` must write to DATABASE_URL, but ${dbs.writability.reason}.`,
      });
    }
    logger.warn({ reason: dbs.writability.reason }, "Database is not writable: serving read-only, no jobs");
  }
  return dbs;
}

/** Live updates (the socket): the bus's events, in-process and across processes, turned into socket events. */
function startLive(
  config: Config,
  dbs: Databases,
  bus: EventBus,
  serve: boolean,
  logger: Logger,
): LiveUpdates {
  return startLiveUpdates({
    db: dbs.db,
    databaseUrl: config.databaseUrl,
    logger: logger.child({ part: "live" }),
    serve,
    bus,
    addressDeps: {
      verified: createVerifiedContractLookup(dbs.readDb),
      tags: loadPublicTags(config.publicTagsFile),
      gateways: { ipfs: config.ipfsGatewayUrl, arweave: config.arweaveGatewayUrl },
    },
  });
}

function healthSources(
  role: RoleName,
  dbs: Databases,
  requiresWrite: boolean,
  rpc: Rpc | null,
  indexerPart: IndexerPart | null,
): HealthSources {
  return {
    role,
    writable: () => dbs.writability.writable,
    requiresWrite,
    ...(rpc ? { rpcHead: rpcHead(rpc) } : {}),
    ...(indexerPart
      ? {
          progress: indexerPart.indexer.progress,
          chainId: () => indexerPart.indexer.chainId,
          lease: () => ({ held: indexerPart.lease.held(), kind: indexerPart.lease.kind }),
        }
      : {}),
  };
}

export const dataPath = (config: Config, ...parts: string[]) => join(config.dataDir, ...parts);
