import type { Address } from "viem";
import { fromBytea, toBytea } from "../db/bytes.js";
import type { Queryable } from "../db/db.js";

/**
 * The implementation the index holds for `address` now (its newest address_proxies row: a contract proxy or an
 * EIP-7702 delegation), null when it is none or a revocation was last; one probe of the primary key.
 */
export async function currentImplementation(db: Queryable, address: Address): Promise<Address | null> {
  const [r] = await db.query<{ implementation: Uint8Array | null }>(
    "select implementation from address_proxies where address = $1 order by block_number desc limit 1",
    [toBytea(address)],
  );
  return r?.implementation ? (fromBytea(r.implementation) as Address) : null;
}
