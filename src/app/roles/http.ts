import Fastify from "fastify";
import type { Rpc } from "../../chain/rpc.js";
import type { Config } from "../../config/config.js";
import type { Db } from "../../db/db.js";
import { cappedStatementTimeout, openDb } from "../../db/open.js";
import { loadPublicTags } from "../../explorer/objects/tags.js";
import { registerOps } from "../../http/ops.js";
import { closeApp } from "../../http/timeouts.js";
import type { LiveSocketOptions } from "../../live/socket.js";
import type { Metrics } from "../../metrics/registry.js";
import type { MultichainChain } from "../../multichain/chains.js";
import type { Logger } from "../../util/logger.js";
import type { RequestActivity } from "../../util/request-activity.js";
import { describeDatabase, startupLine } from "../../util/startup-line.js";
import { createVerifiedContractLookup } from "../../verifier/store/index.js";
import { type HealthSources, healthRoutes } from "../health.js";
import { type App, buildApp } from "../http-app.js";
import type { FurtherChainPart } from "./chains.js";
import type { Databases } from "./database.js";
import type { VerifierPart } from "./verifier.js";

export type HttpPart = { app: App; port: number; stop(): Promise<void> };

export const rpcHead = (rpc: Rpc) => async () => Number(await rpc.request<string>("eth_blockNumber", []));

/**
 * The public HTTP API. Explorer reads go to the read database (READ_DATABASE_URL when set); verification, its
 * jobs and the store write through DATABASE_URL. On a database this process cannot write, writes answer 503.
 */
export async function startApiHttp(o: {
  config: Config;
  dbs: Databases;
  verifier: VerifierPart;
  health: HealthSources;
  metrics: Metrics;
  logger: Logger;
  /** Live updates: the socket is served only with it. */
  live?: LiveSocketOptions;
  /** The chain's RPC, for the start-up line (a local anvil's URL included). */
  rpcUrl?: string;
  /**
   * Chains from CHAINS_CONFIG: the first chain's id (also served under /chains/{id}) and the further chains (none
   * when one chain is configured).
   */
  rootChainId?: string | null;
  chains?: readonly FurtherChainPart[];
  /** Counts this process's requests in flight for its indexer (index + serve in one process). */
  requestActivity?: RequestActivity;
}): Promise<HttpPart> {
  const { config, dbs, verifier } = o;
  const graphqlDb = await openGraphqlDb(config);
  const app = await buildApp({
    db: dbs.readDb,
    ...(graphqlDb ? { graphqlDb } : {}),
    config,
    logger: o.logger.child({ part: "http" }),
    health: o.health,
    metrics: o.metrics,
    readOnlyReason: dbs.writability.reason,
    // Rate limits counted in the database every `serve` process shares (PGlite: one process, its memory).
    rateLimitDb: dbs.db.kind === "postgres" ? dbs.db : null,
    explorer: {
      tags: loadPublicTags(config.publicTagsFile),
      gateways: { ipfs: config.ipfsGatewayUrl, arweave: config.arweaveGatewayUrl },
      // is_verified and the contract name of address objects come from our verified-contract store.
      verified: createVerifiedContractLookup(dbs.readDb),
    },
    verifier: verifier.api,
    ...(o.requestActivity ? { requestActivity: o.requestActivity } : {}),
    ...(o.live ? { live: o.live } : {}),
    ...(o.chains
      ? {
          // The cross-chain API over every chain of the deployment, each through its own handle.
          multichainChains: multichainSource(o.rootChainId ?? null, config.chainName, dbs, o.chains),
          rootChainId: o.rootChainId ?? null,
          chains: o.chains.map((c) => ({
            id: c.chain.id,
            db: c.dbs.readDb,
            health: c.health,
            ...(o.live ? { live: { ...o.live, hub: c.live.hub } } : {}),
            explorer: { verified: createVerifiedContractLookup(c.dbs.readDb) },
            ...(graphqlDb?.inSchema ? { graphqlDb: graphqlDb.inSchema(c.chain.schema) } : {}),
          })),
        }
      : {}),
  });
  if (graphqlDb) app.addHook("onClose", () => graphqlDb.close());
  return listen(app, config, o.logger, (url) =>
    startupLine({ database: describeDatabase(config), rpc: o.rpcUrl ?? null, http: url }),
  );
}

/** The chains of the cross-chain API (src/multichain/): the first chain (when its id is known) and the further ones. */
function multichainSource(
  rootId: string | null,
  rootName: string,
  dbs: Databases,
  chains: readonly FurtherChainPart[],
): () => MultichainChain[] {
  const list: MultichainChain[] = [
    ...(rootId ? [{ id: rootId, name: rootName, db: dbs.readDb }] : []),
    ...chains.map((c) => ({ id: c.chain.id, name: c.chain.name, db: c.dbs.readDb })),
  ];
  return () => list;
}

/**
 * On PostgreSQL, the GraphQL API reads through a pool of its own whose statements stop at
 * API_GRAPHQL_STATEMENT_TIMEOUT_MS, never longer than DB_STATEMENT_TIMEOUT_MS (a costly query cannot hold the
 * explorer's connections); PGlite has no timeout.
 */
async function openGraphqlDb(config: Config): Promise<Db | null> {
  const url = config.readDatabaseUrl ?? config.databaseUrl;
  if (!url || !config.graphqlEnabled || config.graphqlStatementTimeoutMs === 0) return null;
  return openDb({
    ...config,
    databaseUrl: url,
    dbStatementTimeoutMs: cappedStatementTimeout(
      config.graphqlStatementTimeoutMs,
      config.dbStatementTimeoutMs,
    ),
  });
}

/** The small HTTP server of the roles without the API (`index`, `work`): `/health` and `/metrics` only. */
export async function startOpsHttp(o: {
  config: Config;
  dbs: Databases;
  health: HealthSources;
  metrics: Metrics;
  logger: Logger;
}): Promise<HttpPart | null> {
  const app = Fastify({ logger: false });
  registerOps(app, { metrics: o.metrics });
  await app.register(healthRoutes, { db: o.dbs.readDb, sources: o.health });
  try {
    return await listen(
      app as unknown as App,
      o.config,
      o.logger,
      "Health and metrics listening (/health, /metrics)",
    );
  } catch (err) {
    // The work of these roles does not depend on it: a taken port costs the probes, not the indexing.
    o.logger.warn(
      { err, port: o.config.port },
      "Could not serve /health and /metrics (set PORT to a free port)",
    );
    await app.close();
    return null;
  }
}

async function listen(
  app: App,
  config: Config,
  logger: Logger,
  message: string | ((url: string) => string),
): Promise<HttpPart> {
  await app.listen({ port: config.port, host: config.host });
  const port = (app.server.address() as { port: number }).port;
  const url = `http://${config.host}:${port}`;
  logger.info({ url }, typeof message === "string" ? message : message(url));
  return { app, port, stop: () => closeApp(app) };
}
