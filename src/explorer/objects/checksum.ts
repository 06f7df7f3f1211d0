import { type Address, checksumAddress } from "viem";

const LIMIT = 50_000;
const cache = new Map<string, Address>();

/**
 * The EIP-55 form of a lower-case address read from the database (always well-formed, so unchecked). Every address
 * object of every list goes through here; viem's own cache refreshes recency on each hit (a delete and a set),
 * which cost more than the plain lookup this needs. Bounded: emptied when full.
 */
export function checksummed(lower: string): Address {
  let out = cache.get(lower);
  if (out === undefined) {
    if (cache.size >= LIMIT) cache.clear();
    out = checksumAddress(lower as Address);
    cache.set(lower, out);
  }
  return out;
}
