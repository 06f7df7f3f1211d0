import { Type } from "@sinclair/typebox";
import { OrNull } from "../objects/address-schema.js";

/** GET /config/backend (ConfigController.backend). */
export const BackendConfigSchema = Type.Object({
  chain_type: OrNull(Type.String()),
  openapi_spec_folder_name: Type.String(),
});

/** GET /config/indexer (ConfigController.indexer): which of Blockscout's fetchers the index has the work of. */
export const IndexerConfigSchema = Type.Object({
  indexer_enabled: Type.Boolean(),
  internal_transactions_fetcher_enabled: Type.Boolean(),
  pending_transactions_fetcher_enabled: Type.Boolean(),
  block_reward_fetcher_enabled: Type.Boolean(),
  token_instance_retry_fetcher_enabled: Type.Boolean(),
  token_instance_sanitize_fetcher_enabled: Type.Boolean(),
});

/** GET /config/public-metrics (ConfigController.public_metrics). */
export const PublicMetricsConfigSchema = Type.Object({ update_period_hours: Type.Integer() });

/** GET /config/smart-contracts/languages (ConfigController.languages_list). */
export const LanguagesSchema = Type.Object({ languages: Type.Array(Type.String()) });

/**
 * GET /config/db-background-migrations (ConfigController.db_background_migrations): the background migrations
 * not yet completed, each as its migrations_status row. Lookout has none to list (see the service).
 */
export const DbBackgroundMigrationsSchema = Type.Object({
  migrations: Type.Array(
    Type.Object({
      migration_name: Type.String(),
      status: Type.String(),
      inserted_at: Type.String({ format: "date-time" }),
      updated_at: Type.String({ format: "date-time" }),
      meta: OrNull(Type.Object({}, { additionalProperties: true })),
    }),
  ),
});
