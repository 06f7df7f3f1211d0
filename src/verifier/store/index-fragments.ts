import { INDEXED_CHAIN_ID_SQL } from "../../chain-store/checkpoint.js";

// The verified store's SQL fragments for statements over the index (the explorer's pages): the one place outside
// this folder's modules that names verified_contracts and verified_compilations. Every probe is the store's primary
// key (chain_id, address), on the indexed chain.

/** The name of the contract at `address` verified on the indexed chain, as a scalar subquery. */
export function verifiedNameSql(address: string): string {
  return `(select c.contract_name from verified_contracts v join verified_compilations c on c.id = v.compilation_id
    where v.chain_id = ${INDEXED_CHAIN_ID_SQL} and v.address = ${address})`;
}

/**
 * Whether the contract at `callee` or its implementation `impl` is verified on the indexed chain: only then does a
 * page look up ABIs to decode inputs.
 */
export function calleeVerifiedSql(callee: string, impl: string): string {
  return `(${callee} is not null and exists (select 1 from verified_contracts v
    where v.chain_id = ${INDEXED_CHAIN_ID_SQL} and (v.address = ${callee} or v.address = ${impl})))`;
}

/** The ABIs verified on chain `$2` for the addresses of the bytea array `$1`: rows (address, abi). */
export const VERIFIED_ABIS_SQL = `select v.address, c.abi from verified_contracts v
     join verified_compilations c on c.id = v.compilation_id
     where v.chain_id = $2 and v.address = any($1::bytea[])`;
