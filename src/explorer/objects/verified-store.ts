import type { Address } from "viem";
import { indexedChainId as chainIdOfIndex } from "../../chain-store/checkpoint.js";
import type { Queryable } from "../../db/db.js";

/**
 * The verified-contract store as the explorer sees it: verified contract names by (lower-case) address. `inSql`:
 * the store is the indexed chain's in the explorer's own database, so page statements read the names with their
 * address facts (addressFactsSubquery) and no lookup runs.
 */
export type VerifiedContractLookup = ((
  addresses: readonly Address[],
) => Promise<ReadonlyMap<Address, { name: string }>>) & { readonly inSql?: boolean };

export const NO_VERIFIED_CONTRACTS: VerifiedContractLookup = async () => new Map();

/** The chain id of the index, for the verified-contract store's lookups. */
export async function indexedChainId(db: Queryable): Promise<string | null> {
  const id = await chainIdOfIndex(db);
  return id === null ? null : String(id);
}
