import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { ResourceOptions } from "../deps.js";
import { answers } from "../errors.js";
import {
  BackendConfigSchema,
  DbBackgroundMigrationsSchema,
  IndexerConfigSchema,
  LanguagesSchema,
  PublicMetricsConfigSchema,
} from "./schema.js";
import {
  backendConfig,
  dbBackgroundMigrations,
  indexerConfig,
  languages,
  publicMetricsConfig,
} from "./service.js";

/**
 * /config/backend, /config/indexer, /config/public-metrics, /config/smart-contracts/languages,
 * /config/db-background-migrations (ConfigController).
 */
export const configRoutes: FastifyPluginAsyncTypebox<ResourceOptions> = async (app, { deps }) => {
  const tags = ["config"];
  app.get("/config/backend", { schema: { tags, response: answers(BackendConfigSchema) } }, async () =>
    backendConfig(deps.db),
  );
  app.get("/config/indexer", { schema: { tags, response: answers(IndexerConfigSchema) } }, async () =>
    indexerConfig(deps.db),
  );
  app.get(
    "/config/public-metrics",
    { schema: { tags, response: answers(PublicMetricsConfigSchema) } },
    async () => publicMetricsConfig(),
  );
  app.get(
    "/config/smart-contracts/languages",
    { schema: { tags, response: answers(LanguagesSchema) } },
    async () => languages(),
  );
  app.get(
    "/config/db-background-migrations",
    { schema: { tags, response: answers(DbBackgroundMigrationsSchema) } },
    async () => dbBackgroundMigrations(),
  );
};
