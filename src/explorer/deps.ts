import type { Hex } from "viem";
import type { Queryable } from "../db/db.js";
import type { Gateways } from "../token-workers/metadata/index.js";
import type { PublicTags } from "./objects/tags.js";
import type { VerifiedContractLookup } from "./objects/verified-store.js";

/** The token-transfer preview of one transaction (owned by token-transfer, shown by transaction's details). */
export type TokenTransfersOfTransaction = (
  hash: Hex,
  blockNumber: number,
) => Promise<{ items: unknown[]; overflow: boolean }>;

/**
 * What the explorer's reads need, built once by app/ from the configuration (nothing here reads the environment)
 * and handed to every /api/v2 resource and to live/. Reads that take the database separately accept it without
 * `db` (`Omit<ExplorerDeps, "db">`).
 */
export type ExplorerDeps = {
  db: Queryable;
  /** The verified-contract store; none until the verifier plugs it in (is_verified false, no names). */
  verified?: VerifiedContractLookup;
  /** Public tags of address objects (none when absent). */
  tags?: PublicTags;
  /** IPFS/Arweave gateways of NFT media URLs. */
  gateways?: Partial<Gateways>;
  /** Days of `/coin-balance-history-by-day` (COIN_BALANCE_HISTORY_DAYS). */
  coinBalanceHistoryDays?: number;
  /** Whether this process's indexer has reached the head (`/main-page/indexing-status`); absent in `serve`. */
  caughtUp?: () => boolean;
};

/** The plugin options of every /api/v2 resource (one line each in api.ts's RESOURCES). */
export type ResourceOptions = {
  deps: ExplorerDeps;
  /**
   * The token-transfer preview of a transaction's details: owned by token-transfer, handed to transaction by api.ts
   * (token-transfer's lists already ask transaction whether a hash is known, so neither imports the other both ways).
   */
  tokenTransfers?: TokenTransfersOfTransaction;
};
