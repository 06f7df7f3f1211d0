import type { Address } from "viem";
import { fromBytea } from "../../db/bytes.js";
import type { AddressObject } from "../objects/address-view.js";
import type { HolderCursor, HolderRow } from "./query.js";

/** One TokenHolder (frontend types/api/token.ts): address, value, and token_id for per-id rows. */
export type TokenHolderItem = { address: AddressObject; value: string; token_id: string | null };
export type HoldersNextPage = {
  address_hash: Address;
  value: string;
  token_id?: string;
  items_count: number;
};

/** One holder item. Pure. */
export function holderView(r: HolderRow, addresses: ReadonlyMap<Address, AddressObject>): TokenHolderItem {
  return { address: addresses.get(fromBytea(r.holder))!, value: r.value, token_id: r.token_id };
}

/** Upstream's next_page_params of the holder lists: address_hash, value; token_id added for per-id rows. */
export function holdersCursor(last: HolderRow): Omit<HoldersNextPage, "items_count"> {
  return {
    address_hash: fromBytea(last.holder),
    value: last.value,
    ...(last.token_id !== null ? { token_id: last.token_id } : {}),
  };
}

/** The cursor of a holders request: both of address_hash and value, or neither (the first page). */
export function holderCursor(q: {
  address_hash?: string;
  value?: string;
  token_id?: string;
}): HolderCursor | null {
  if (q.address_hash === undefined || q.value === undefined) return null;
  return {
    holder: q.address_hash.toLowerCase() as Address,
    value: BigInt(q.value),
    tokenId: q.token_id === undefined ? null : BigInt(q.token_id),
  };
}
