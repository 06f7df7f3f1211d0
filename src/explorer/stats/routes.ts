import type { FastifyPluginAsync } from "fastify";
import { recentBlocks } from "../block/service.js";
import { type ExplorerRouteOptions, explorerDeps } from "../deps.js";
import { recentTransactions } from "../transaction/service.js";
import { homeStats, indexingStatus } from "./service.js";

export type MainPageRouteOptions = ExplorerRouteOptions & {
  /** Whether the indexer of this process has reached the node's head (absent in a serve-only process). */
  caughtUp?: () => boolean;
  /** The backend_version reported to the frontend. */
  version?: string;
};

/** /stats, /main-page/{blocks,transactions,indexing-status}, /config/backend-version. */
export const mainPageRoutes: FastifyPluginAsync<MainPageRouteOptions> = async (app, opts) => {
  const deps = explorerDeps(opts);
  app.get("/stats", { schema: { tags: ["stats"] } }, async () => homeStats(deps.db));
  // Blockscout's home page shows the newest 4 blocks and 6 transactions.
  app.get("/main-page/blocks", { schema: { tags: ["main-page"] } }, async () => recentBlocks(deps, 4));
  app.get("/main-page/transactions", { schema: { tags: ["main-page"] } }, async () =>
    recentTransactions(deps, 6),
  );
  app.get("/main-page/indexing-status", { schema: { tags: ["main-page"] } }, async () =>
    indexingStatus(deps.db, opts.caughtUp),
  );
  app.get("/config/backend-version", { schema: { tags: ["config"] } }, async () => ({
    backend_version: opts.version ?? `lookout/${LOOKOUT_VERSION}`,
  }));
};

const LOOKOUT_VERSION = "0.1.0";
