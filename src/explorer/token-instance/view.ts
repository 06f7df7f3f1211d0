import type { Address } from "viem";
import { fromBytea } from "../../db/bytes.js";
import type { Gateways } from "../../token-workers/metadata/index.js";
import type { NftType } from "../nft-params.js";
import type { AddressObject } from "../objects/address-view.js";
import { isUnique, type TokenInstanceObject, tokenInstanceView } from "../objects/token-instance-view.js";
import { type TokenObject, tokenFactsFromRow, tokenView } from "../objects/token-view.js";
import type { InstanceRow, InstancesPageRow } from "./query.js";

export type InstancesPage = {
  items: TokenInstanceObject[];
  next_page_params: { unique_token: number | string; items_count: number } | null;
};

/** Upstream sends the id as a JSON integer (the frontend's type is a number); beyond 2^53 a string keeps it exact. */
const uniqueToken = (id: string) => (BigInt(id) <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(id) : id);

/** The inventory's keyset in next_page_params. */
export const instancesCursor = (last: InstancesPageRow) => ({ unique_token: uniqueToken(last.token_id) });

/** Whether an inventory row's instance is unique: every ERC-721 id; an id of another type held whole by one holder. */
const inventoryUnique = (type: NftType, r: InstancesPageRow) =>
  type === "ERC-721" || (Number(r.holders) === 1 && isUnique(type, r.id_supply));

/** The owner an inventory row shows: the single holder of a unique instance, else none. */
export function inventoryOwner(type: NftType, r: InstancesPageRow): Address | null {
  return inventoryUnique(type, r) && r.owner ? fromBytea(r.owner) : null;
}

/** One inventory item. Pure. */
export function inventoryItemView(
  type: NftType,
  r: InstancesPageRow,
  o: { token: TokenObject; owners: ReadonlyMap<Address, AddressObject>; gateways: Partial<Gateways> },
): TokenInstanceObject {
  const owner = inventoryOwner(type, r);
  return tokenInstanceView({
    id: r.token_id,
    metadata: r.metadata,
    token: o.token,
    unique: inventoryUnique(type, r),
    owner: owner ? o.owners.get(owner)! : null,
    holder: owner,
    gateways: o.gateways,
  });
}

/** Whether the instance of /tokens/{a}/instances/{id} is unique: held whole by its only holder. */
export function instanceUnique(r: InstanceRow): boolean {
  return Number(r.holders) === 1 && isUnique((r.t_type ?? "ERC-721") as NftType, r.id_supply);
}

/** The instance of /tokens/{a}/instances/{id} (its owner's object loaded when unique). Pure. */
export function instanceView(
  address: Address,
  tokenId: bigint,
  r: InstanceRow,
  owner: AddressObject | null,
  gateways: Partial<Gateways>,
): TokenInstanceObject {
  return tokenInstanceView({
    id: tokenId.toString(),
    metadata: r.metadata,
    token: tokenView(tokenFactsFromRow(address, r)),
    unique: r.t_type === "ERC-721" || r.t_type === null ? true : instanceUnique(r),
    owner,
    holder: null,
    gateways,
  });
}
