import type { Queryable } from "../../db/db.js";
import { indexHolds } from "./query.js";

/** Blockscout's CHAIN_TYPE as the index shows it (`optimism` or none) and the OpenAPI folder it names. */
export async function backendConfig(db: Queryable) {
  const chainType = (await indexHolds(db)).opStack ? "optimism" : null;
  return { chain_type: chainType, openapi_spec_folder_name: chainType ?? "default" };
}

/**
 * Blockscout's fetcher switches, for what Lookout does: the index is always filled; call frames and block rewards
 * when the node gave traces (seen in the index); no mempool (pending); the metadata worker retries failed
 * instances and fetches instances without metadata (Blockscout's retry and sanitize fetchers).
 */
export async function indexerConfig(db: Queryable) {
  const holds = await indexHolds(db);
  return {
    indexer_enabled: true,
    internal_transactions_fetcher_enabled: holds.internalTransactions,
    pending_transactions_fetcher_enabled: false,
    block_reward_fetcher_enabled: holds.blockRewards,
    token_instance_retry_fetcher_enabled: true,
    token_instance_sanitize_fetcher_enabled: true,
  };
}

/** Blockscout's PUBLIC_METRICS_UPDATE_PERIOD_HOURS default; Lookout keeps no public-metrics cache of its own. */
export const publicMetricsConfig = () => ({ update_period_hours: 24 });

/** The languages the verified-contract store records (Blockscout lists its schema's enum). */
export const languages = () => ({ languages: ["solidity", "vyper", "yul"] });

/**
 * Blockscout lists here the background migrations still running after its start (the frontend waits for them before
 * trusting some figures). Lookout has no background migrations: every schema change is a migration file applied
 * before the process serves anything (`--migrate`), and a process started without it refuses a database that lacks
 * any (`schema_behind`, src/app/roles/database.ts). So whoever can ask has every migration finished: the empty list.
 */
export const dbBackgroundMigrations = (): { migrations: [] } => ({ migrations: [] });
