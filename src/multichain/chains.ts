import { indexedChainId } from "../chain-store/checkpoint.js";
import type { Queryable } from "../db/db.js";
import type { ExplorerDeps } from "../explorer/deps.js";
import { createVerifiedContractLookup } from "../verifier/store/verified-contracts.js";

/** One indexed chain as the cross-chain API sees it: its id (decimal), its name and its indexed data. */
export type MultichainChain = {
  id: string;
  name: string;
  db: Queryable;
  /** Where the chain's own explorer is (the aggregator's `explorer_url`); "" when not known. */
  explorerUrl?: string;
  /** The chain's icon (the aggregator's `icon_url`); "" when not known. */
  iconUrl?: string;
};

/**
 * The chains, as a function: a deployment may add chains while it runs. It may answer a promise (a chain whose id
 * the database has yet to record).
 */
export type ChainSource = () => readonly MultichainChain[] | Promise<readonly MultichainChain[]>;

/** Chain ids compare as integers (ids beyond 2^53 included): the aggregator orders by chain id. */
export function compareChainIds(a: string, b: string): number {
  const x = BigInt(a);
  const y = BigInt(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** The explorer reads of one chain: its database and its verified-contract store (in the same database). */
export function explorerDepsOf(chain: MultichainChain): ExplorerDeps {
  return { db: chain.db, verified: createVerifiedContractLookup(chain.db) };
}

/**
 * Today's one-chain deployment as the chain list of the cross-chain API: the chain the database indexes, once the
 * indexer has recorded its id (none before).
 */
export function singleChainSource(db: Queryable, name: string): ChainSource {
  let chains: readonly MultichainChain[] | null = null;
  return async () => {
    if (chains) return chains;
    const id = await indexedChainId(db);
    if (id === null) return [];
    chains = [{ id: String(id), name, db }];
    return chains;
  };
}
