import type { Address } from "viem";
import { fromBytea } from "../../db/bytes.js";
import type { AddressObject } from "../objects/address-view.js";
import type { TopAccountRow } from "./query.js";

/** AddressesItem (addresses.ts): the address object with its balance and transaction count. */
export function topAccountView(r: TopAccountRow, addresses: ReadonlyMap<Address, AddressObject>) {
  return {
    ...addresses.get(fromBytea(r.address) as Address)!,
    coin_balance: r.value,
    transactions_count: r.transactions_count,
  };
}

/** Blockscout's next_page_params keys for this list (its Address paging_params), whatever the order. */
export const topAccountCursor = (r: TopAccountRow) => ({
  fetched_coin_balance: r.value,
  hash: fromBytea(r.address),
  transactions_count: Number(r.transactions_count),
});
