import type { Address } from "viem";
import { fromBytea } from "../../db/bytes.js";
import type { AddressObject } from "../objects/address-view.js";
import type { HotContractRow } from "./query.js";

/** The frontend's HotContract (stats.ts): the address object, the counts as strings, the current balance. */
export function hotContractView(r: HotContractRow, addresses: ReadonlyMap<Address, AddressObject>) {
  return {
    contract_address: addresses.get(fromBytea(r.address) as Address)!,
    transactions_count: r.transactions,
    total_gas_used: r.gas_used,
    balance: r.balance,
  };
}

/** Blockscout's next_page_params keys for this list (hot_smart_contracts_paging_params). */
export const hotContractCursor = (r: HotContractRow) => ({
  contract_address_hash: fromBytea(r.address),
  transactions_count: Number(r.transactions),
  total_gas_used: r.gas_used,
});
