import Fastify from "fastify";
import type { Rpc } from "../../chain/rpc.js";
import type { Config } from "../../config/config.js";
import { loadPublicTags } from "../../explorer/objects/tags.js";
import { registerOps } from "../../http/ops.js";
import { closeApp } from "../../http/timeouts.js";
import type { LiveSocketOptions } from "../../live/socket.js";
import type { Metrics } from "../../metrics/registry.js";
import type { Logger } from "../../util/logger.js";
import { describeDatabase, startupLine } from "../../util/startup-line.js";
import { createVerifiedContractLookup } from "../../verifier/store/index.js";
import { type HealthSources, healthRoutes } from "../health.js";
import { type App, buildApp } from "../http-app.js";
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
}): Promise<HttpPart> {
  const { config, dbs, verifier } = o;
  const app = await buildApp({
    db: dbs.readDb,
    config,
    logger: o.logger.child({ part: "http" }),
    health: o.health,
    metrics: o.metrics,
    readOnlyReason: dbs.writability.reason,
    explorer: {
      tags: loadPublicTags(config.publicTagsFile),
      gateways: { ipfs: config.ipfsGatewayUrl, arweave: config.arweaveGatewayUrl },
      // is_verified and the contract name of address objects come from our verified-contract store.
      verified: createVerifiedContractLookup(dbs.readDb),
    },
    verifier: verifier.api,
    ...(o.live ? { live: o.live } : {}),
  });
  return listen(app, config, o.logger, (url) =>
    startupLine({ database: describeDatabase(config), rpc: o.rpcUrl ?? null, http: url }),
  );
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
