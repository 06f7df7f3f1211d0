import type { Address } from "viem";
import type { Queryable } from "../../db/db.js";
import { getCoinBalanceSummary } from "../coin-balance/service.js";
import type { CoinBalanceSummary } from "../coin-balance/view.js";
import type { ExplorerDeps } from "../deps.js";
import { addressObjectsFromColumns } from "../objects/address-facts.js";
import { NO_VERIFIED_CONTRACTS } from "../objects/verified-store.js";
import { addressRow } from "./query.js";
import { type AddressDetails, addressDetailsView } from "./view.js";

/**
 * GET /addresses/{h}: the address object plus creation, token, balance and the has_* flags (a stub if unknown).
 * The address object's table facts come with the flags in one statement; the verified-contract lookup and the
 * balance summary run alongside it.
 */
export async function addressDetails(
  db: Queryable,
  address: Address,
  deps: Omit<ExplorerDeps, "db"> & {
    coinBalance?: (db: Queryable, a: Address) => Promise<CoinBalanceSummary>;
  },
): Promise<AddressDetails> {
  const verifiedSelf = (deps.verified ?? NO_VERIFIED_CONTRACTS)([address.toLowerCase() as Address]);
  // A rejected lookup must not go unhandled while the other queries are still running.
  verifiedSelf.catch(() => {});
  const [row, balance] = await Promise.all([
    addressRow(db, address),
    (deps.coinBalance ?? getCoinBalanceSummary)(db, address),
  ]);
  const base = (await addressObjectsFromColumns([[address, row]], deps, verifiedSelf)).get(
    address.toLowerCase() as Address,
  )!;
  return addressDetailsView(address, base, balance, row);
}
