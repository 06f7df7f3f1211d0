import type { Address } from "viem";
import { fromBytea, toBytea } from "../db/bytes.js";
import type { Queryable } from "../db/db.js";

/**
 * The newest address_proxies row of the address in `address` (a column or a parameter) as a subquery selecting
 * `columns`: a scalar one for one column, a lateral one for several. Its implementation is what the index holds
 * for the address now (a contract proxy or an EIP-7702 delegation), null after a revocation; one backward probe of
 * the primary key (address, block_number).
 */
export const newestProxySql = (address: string, columns = "implementation"): string =>
  `(select ${columns} from address_proxies where address = ${address} order by block_number desc limit 1)`;

/**
 * The newest address_proxies row of each address of the bytea array `addresses` (a parameter), selecting `address`
 * and `columns`; `where` narrows the rows first (say, up to a block).
 */
export const newestProxiesSql = (addresses: string, columns: string, where = ""): string =>
  `select distinct on (address) address, ${columns} from address_proxies
     where address = any(${addresses})${where ? ` and ${where}` : ""} order by address, block_number desc`;

/**
 * Whether the address in `address` holds a contract as the address objects tell it: the index saw its creation,
 * or it is a token, or a proxy whose newest row names an implementation (an EIP-7702 revocation leaves an EOA
 * again, as Blockscout clears its code).
 */
export function isContractSql(address: string): string {
  return `(exists (select 1 from contract_creations where address = ${address})
      or coalesce(${newestProxySql(address, "implementation is not null")}, false)
      or exists (select 1 from tokens where address = ${address}))`;
}

/**
 * Whether the index ever saw the address in `address` as a contract: a creation, any address_proxies row (a
 * revoked delegation's too) or a token. The exports' and advanced filters' "contract" test.
 */
export const everContractSql = (address: string): string =>
  `(exists (select 1 from contract_creations where address = ${address})
    or exists (select 1 from address_proxies where address = ${address})
    or exists (select 1 from tokens where address = ${address}))`;

/**
 * The implementation the index holds for `address` now (its newest address_proxies row: a contract proxy or an
 * EIP-7702 delegation), null when it is none or a revocation was last; one probe of the primary key.
 */
export async function currentImplementation(db: Queryable, address: Address): Promise<Address | null> {
  const [r] = await db.query<{ implementation: Uint8Array | null }>(
    `select ${newestProxySql("$1")} as implementation`,
    [toBytea(address)],
  );
  return r?.implementation ? (fromBytea(r.implementation) as Address) : null;
}
