import { INDEXED_CHAIN_ID_SQL } from "../../chain-store/checkpoint.js";
import { isNewestCreationSql } from "../../chain-store/creations.js";
import type { Queryable } from "../../db/db.js";

/** A contract of `listcontracts`, with its verification when there is one (on the indexed chain). */
export type ListedContract = {
  address: Uint8Array;
  abi: unknown[] | null;
  contract_name: string | null;
  compiler_version: string | null;
  language: string | null;
  compiler_settings: { optimizer?: { enabled?: boolean }; optimize?: boolean | string } | null;
  verified: boolean;
};

export type ContractsFilter = "verified" | "unverified" | "empty" | null;

const VERIFIED_COLUMNS = `c.abi, c.contract_name, c.compiler_version, c.language, c.compiler_settings`;

/** The verification of the contract at `address` (primary-key probe), as a lateral join `vc`. */
const VERIFICATION = (address: string) => `left join lateral (select ${VERIFIED_COLUMNS}, true as verified
    from verified_contracts v join verified_compilations c on c.id = v.compilation_id
    where v.chain_id = ${INDEXED_CHAIN_ID_SQL} and v.address = ${address}) vc on true`;

/** The newest creation of its address: a CREATE2 address created again lists once. */
const NEWEST = isNewestCreationSql("k");

/**
 * Contracts as Blockscout's Explorer.Etherscan.Contracts lists them, `offset` rows skipped: verified ones in
 * verification order (verified_contracts_verified_at_idx, optionally within [start, end)); unverified ones and
 * all of them in creation order (the contract_creations primary key); "empty" ones, created with no code.
 * The results window bounds `offset`.
 */
export function listContracts(
  db: Queryable,
  filter: ContractsFilter,
  o: { limit: number; offset: number; verifiedFrom: Date | null; verifiedTo: Date | null },
): Promise<ListedContract[]> {
  if (filter === "verified") {
    const params: unknown[] = [o.limit, o.offset];
    let where = "";
    if (o.verifiedFrom) {
      params.push(o.verifiedFrom);
      where += ` and v.verified_at >= $${params.length}`;
    }
    if (o.verifiedTo) {
      params.push(o.verifiedTo);
      where += ` and v.verified_at < $${params.length}`;
    }
    return db.query<ListedContract>(
      `select v.address, ${VERIFIED_COLUMNS}, true as verified
       from verified_contracts v join verified_compilations c on c.id = v.compilation_id
       where v.chain_id = ${INDEXED_CHAIN_ID_SQL}${where}
       order by v.verified_at, v.address limit $1 offset $2`,
      params,
    );
  }
  const condition =
    filter === "unverified"
      ? `octet_length(k.runtime_code) > 0 and not exists (select 1 from verified_contracts v
           where v.chain_id = ${INDEXED_CHAIN_ID_SQL} and v.address = k.address)`
      : filter === "empty"
        ? "octet_length(k.runtime_code) = 0"
        : "true";
  return db.query<ListedContract>(
    `select k.address, vc.abi, vc.contract_name, vc.compiler_version, vc.language, vc.compiler_settings,
       coalesce(vc.verified, false) as verified
     from (select k.address from contract_creations k where ${condition} and ${NEWEST}
       order by k.block_number, k.transaction_index, k.creation_index limit $1 offset $2) k
     ${VERIFICATION("k.address")}`,
    [o.limit, o.offset],
  );
}
