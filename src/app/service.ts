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
import { startVerifier, type VerifierPart } from "./roles/verifier.js";

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
      await startChain(config, {
        launchAnvil: role === "start",
        reset: mode.reset ?? false,
        db,
        metrics,
        logger,
      }),
    );
    const { rpc, anvil } = chain;

    const indexerPart =
      mode.indexer && rpc
        ? started(
            await startIndexer({ config, db, rpc, anvil, reset: mode.reset ?? false, logger, metrics, bus }),
          )
        : null;

    const ctx: RoleContext = { config, mode, role, logger, metrics, dbs, live, rpc, started };
    const verifier = await startRoleVerifier(ctx, configuredChains);
    startRoleTokenWork(ctx, bus, indexerPart);
    const app = await startRoleHttp(ctx, verifier, healthSources(role, dbs, mustWrite, rpc, indexerPart));
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

/** What the parts of a role are started with; `started` registers a part for the ordered shutdown. */
type RoleContext = {
  config: Config;
  mode: Mode;
  role: RoleName;
  logger: Logger;
  metrics: Metrics;
  dbs: Databases;
  live: LiveUpdates;
  rpc: Rpc | null;
  started: <T extends Stoppable>(part: T) => T;
};

/** Chains, compilers and (where the role runs them) verification jobs, whose outcomes the socket reports. */
async function startRoleVerifier(
  ctx: RoleContext,
  configuredChains: ReturnType<typeof loadChainsConfig>,
): Promise<VerifierPart | null> {
  const { config, mode, role, dbs, rpc, live } = ctx;
  if (!mode.http && role !== "work") return null;
  return ctx.started(
    await startVerifier({
      config,
      db: dbs.db,
      rpc,
      rpcUrl: rpc?.url,
      configuredChains,
      runJobs: (role === "work" || (mode.jobs ?? config.jobs)) && dbs.writability.writable,
      logger: ctx.logger,
      metrics: ctx.metrics,
      onJobFinished: (job, outcome) =>
        void live.publishVerification(job.address, verificationResultOf(outcome)),
    }),
  );
}

/**
 * Token properties and metadata, woken by the bus's committed batches: beside the indexer (`start`, `index`) and
 * on `work`; claims in the tables let several processes share the work.
 */
function startRoleTokenWork(ctx: RoleContext, bus: EventBus, indexerPart: IndexerPart | null): void {
  const { config, dbs, logger, live, rpc } = ctx;
  const deps = {
    config,
    db: dbs.db,
    logger,
    bus,
    onChange: (c: TokenChange) => void live.publishTokenChange(c),
  };
  if (indexerPart && rpc)
    ctx.started(startTokenWorkBesideIndexer({ ...deps, rpc, indexing: () => indexerPart.lease.held() }));
  else if (ctx.role === "work") ctx.started(startTokenWork({ ...deps, rpc }));
}

/** The HTTP API (with health and metrics), or on a role without it the health and metrics port alone. */
async function startRoleHttp(
  ctx: RoleContext,
  verifier: VerifierPart | null,
  health: HealthSources,
): Promise<App | null> {
  const { config, dbs, metrics, logger, rpc } = ctx;
  if (ctx.mode.http && verifier) {
    const http = await startApiHttp({
      config,
      dbs,
      verifier,
      health,
      metrics,
      logger,
      live: {
        hub: ctx.live.hub,
        maxTopics: ctx.config.socketMaxTopics,
        maxSocketsPerClient: ctx.config.socketMaxPerClient,
      },
      ...(rpc ? { rpcUrl: rpc.url } : {}),
    });
    return ctx.started(http).app;
  }
  const ops = await startOpsHttp({ config, dbs, health, metrics, logger });
  if (ops) ctx.started(ops);
  return null;
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
          lease: () => {
            const l = indexerPart.lease;
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
}

export const dataPath = (config: Config, ...parts: string[]) => join(config.dataDir, ...parts);
