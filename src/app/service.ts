import type { Anvil } from "../chain/anvil.js";
import type { Rpc } from "../chain/rpc.js";
import { indexedChainId, indexedRange } from "../chain-store/checkpoint.js";
import { loadChainsConfig } from "../config/chains.js";
import type { Config } from "../config/config.js";
import type { Db } from "../db/db.js";
import { refusesWrites } from "../db/failures.js";
import { LookoutError } from "../errors/base.js";
import { EventBus } from "../events/bus.js";
import type { TokenChange } from "../events/facts.js";
import { createPgListener, type PgListener } from "../events/pg-relay.js";
import { loadPublicTags } from "../explorer/objects/tags.js";
import { type LockSession, lockSession } from "../indexer/pipeline/lease.js";
import type { Indexer } from "../indexer/pipeline/runtime.js";
import { type LiveUpdates, startLiveUpdates } from "../live/index.js";
import { verificationResultOf } from "../live/verification-result.js";
import { createMetrics, type Metrics } from "../metrics/registry.js";
import type { Logger } from "../util/logger.js";
import { RequestActivity } from "../util/request-activity.js";
import type { VerifierChain } from "../verifier/chain-clients.js";
import type { CompilerRegistry } from "../verifier/compilers/index.js";
import { createVerifiedContractLookup } from "../verifier/store/index.js";
import type { HealthSources } from "./health.js";
import type { App } from "./http-app.js";
import { startChain } from "./roles/chain.js";
import { type FurtherChainPart, planChains, startFurtherChain } from "./roles/chains.js";
import { startCrossChainVerification } from "./roles/cross-chain-verification.js";
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
export async function startService(settings: Config, mode: Mode, logger: Logger): Promise<Service> {
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
    const configuredChains = loadChainsConfig(settings.chainsConfig);
    const metrics = createMetrics(role);
    const mustWrite = mode.indexer || role === "work";
    const dbs = await openRoleDatabases(settings, mode, role, mustWrite, logger);
    cleanups.push(() => dbs.close());
    const { db } = dbs;
    // The chains this deployment indexes and serves: the first one's tables in `public` as always, the others'
    // in schemas of their own (roles/chains.ts).
    const publicChainId = await indexedChainId(dbs.readDb);
    const plan = planChains(
      settings,
      configuredChains,
      publicChainId === null ? null : String(publicChainId),
    );
    const config = plan.root;
    metrics.sources.height = async () => (await indexedRange(dbs.readDb))?.lastBlock ?? null;

    const shared = sharedConnections(config, mode, dbs, plan.further.length > 0, logger);
    if (shared.listener) started(shared.listener);
    const locks = shared.locks;
    if (locks) started({ stop: () => locks.close() });
    // This process's facts (committed blocks, finished verifications, token changes) and who hears them.
    const bus = new EventBus();
    const live = started(startLive(config, dbs, bus, mode.http, logger, shared.listener));

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

    // Index + serve in one process: history catching up gives way to the API's requests (issue 35).
    const requests = mode.indexer && mode.http ? new RequestActivity() : undefined;
    const indexerPart =
      mode.indexer && rpc
        ? started(
            await startIndexer({
              config,
              db,
              rpc,
              anvil,
              reset: mode.reset ?? false,
              logger,
              metrics,
              bus,
              ...(requests ? { pacing: requests } : {}),
              ...(shared.locks ? { lockSession: shared.locks } : {}),
            }),
          )
        : null;

    const further: FurtherChainPart[] = [];
    for (const chain of plan.further)
      further.push(
        started(
          await startFurtherChain({
            chain,
            base: dbs,
            migrate: mode.migrate ?? (role === "start" || role === "index"),
            index: mode.indexer,
            serve: mode.http,
            tokenWork: role === "work",
            reset: mode.reset ?? false,
            metrics,
            logger,
            shared,
          }),
        ),
      );
    // Verify once, verified everywhere: the first chain's earlier deployments too, once there are several chains.
    if (further.length && indexerPart && rpc)
      started(startCrossChainVerification({ db, chainId: String(indexerPart.indexer.chainId), logger }));

    const ctx: RoleContext = {
      config,
      mode,
      role,
      logger,
      metrics,
      dbs,
      live,
      rpc,
      started,
      further,
      requests,
    };
    const verifier = await startRoleVerifier(ctx, configuredChains);
    startRoleTokenWork(ctx, bus, indexerPart);
    const rootChainId =
      plan.rootId ??
      indexerPart?.indexer.chainId ??
      (await indexedChainId(dbs.readDb)) ??
      (rpc ? await rpcChainId(rpc) : null);
    const app = await startRoleHttp(
      ctx,
      verifier,
      healthSources(role, dbs, mustWrite, rpc, indexerPart),
      rootChainId === null ? null : String(rootChainId),
      // Chains from CHAINS_CONFIG are served under /chains/{id}, one as several; RPC_URL alone keeps one chain at
      // the root only, as always.
      further.length > 0 || plan.rootId !== null,
    );
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
  /** The further chains of a multichain deployment (none: one chain, as always). */
  further: readonly FurtherChainPart[];
  /** The API's requests in flight, when this process also indexes (the indexer's history gives way to them). */
  requests: RequestActivity | undefined;
};

const rpcChainId = async (rpc: Rpc) =>
  Number(await rpc.request<string>("eth_chainId", []).catch(() => Number.NaN)) || null;

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
      // The socket of the chain the contract is on.
      onJobFinished: (job, outcome) =>
        void (ctx.further.find((f) => f.chain.id === job.chainId)?.live ?? live).publishVerification(
          job.address,
          verificationResultOf(outcome),
        ),
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
  rootChainId: string | null,
  prefixed: boolean,
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
      ...(prefixed ? { rootChainId, chains: ctx.further } : {}),
      ...(ctx.requests ? { requestActivity: ctx.requests } : {}),
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
    apiReads: Boolean(mode.http),
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

/**
 * The connections every chain of a deployment shares on PostgreSQL: one LISTEN connection (the roles that serve) and
 * one holding the indexing leases' locks (the roles that index), not one of each per chain. One chain: none, its
 * parts open their own as always.
 */
function sharedConnections(
  config: Config,
  mode: Mode,
  dbs: Databases,
  several: boolean,
  logger: Logger,
): { listener?: PgListener; locks?: LockSession } {
  const url = config.databaseUrl;
  if (!several || !url || dbs.db.kind !== "postgres") return {};
  return {
    ...(mode.http ? { listener: createPgListener(url, logger.child({ part: "live" })) } : {}),
    ...(mode.indexer ? { locks: lockSession(url) } : {}),
  };
}

/** Live updates (the socket): the bus's events, in-process and across processes, turned into socket events. */
function startLive(
  config: Config,
  dbs: Databases,
  bus: EventBus,
  serve: boolean,
  logger: Logger,
  listener: PgListener | undefined,
): LiveUpdates {
  return startLiveUpdates({
    ...(listener ? { listener } : {}),
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
    // A writer whose last write failed for lack of space or a database made read-only is not writable, whatever its
    // role's permissions: /health says so (503 for roles that write) with the error.
    writable: () => dbs.writability.writable && !refusesWrites(indexerPart?.indexer.progress.lastError),
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
