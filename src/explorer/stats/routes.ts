import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { ResourceOptions } from "../deps.js";
import { answers } from "../errors.js";
import {
  BackendVersionSchema,
  HomeStatsSchema,
  IndexingStatusSchema,
  TransactionsStatsSchema,
} from "./schema.js";
import { homeStats, indexingStatus, transactionsStats } from "./service.js";

const LOOKOUT_VERSION = "0.1.0";

/** /stats, /transactions/stats, /main-page/indexing-status, /config/backend-version. */
export const statsRoutes: FastifyPluginAsyncTypebox<ResourceOptions> = async (app, { deps }) => {
  app.get("/stats", { schema: { tags: ["stats"], response: answers(HomeStatsSchema) } }, async () =>
    homeStats(deps.db),
  );
  app.get(
    "/transactions/stats",
    { schema: { tags: ["transactions"], response: answers(TransactionsStatsSchema) } },
    async () => transactionsStats(deps.db),
  );
  app.get(
    "/main-page/indexing-status",
    { schema: { tags: ["main-page"], response: answers(IndexingStatusSchema) } },
    async () => indexingStatus(deps.db, deps.caughtUp),
  );
  app.get(
    "/config/backend-version",
    { schema: { tags: ["config"], response: answers(BackendVersionSchema) } },
    async () => ({ backend_version: `lookout/${LOOKOUT_VERSION}` }),
  );
};
