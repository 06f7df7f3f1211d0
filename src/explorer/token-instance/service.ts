import type { Address } from "viem";
import { fromBytea } from "../../db/bytes.js";
import type { Queryable } from "../../db/db.js";
import type { Gateways } from "../../token-workers/metadata/index.js";
import { isUnique, type TokenInstanceObject, tokenInstanceView } from "../nft/view.js";
import { type AddressDeps, loadAddressObjects } from "../objects/address-facts.js";
import type { NftType } from "../objects/nft-params.js";
import { tokenFactsFromRow, tokenView } from "../objects/token-view.js";
import { instancesPage, PAGE_SIZE, tokenRow } from "./query.js";

export type InstancesPage = {
  items: TokenInstanceObject[];
  next_page_params: { unique_token: number | string; items_count: number } | null;
};

/** Upstream sends the id as a JSON integer (the frontend's type is a number); beyond 2^53 a string keeps it exact. */
const uniqueToken = (id: string) => (BigInt(id) <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(id) : id);

/** GET /tokens/{h}/instances; null when the token is unknown or an ERC-20 (upstream's 404). */
export async function tokenInstances(
  db: Queryable,
  token: Address,
  before: bigint | null,
  deps: AddressDeps & { gateways: Partial<Gateways> },
): Promise<InstancesPage | null> {
  const t = await tokenRow(db, token);
  if (t === null || t.t_type === "ERC-20") return null;
  const type = t.t_type as NftType;
  const rows = await instancesPage(db, token, before);
  const page = rows.slice(0, PAGE_SIZE);
  const unique = (r: (typeof page)[number]) =>
    type === "ERC-721" || (Number(r.holders) === 1 && isUnique(type, r.id_supply));
  const owners = await loadAddressObjects(
    db,
    page.filter((r) => r.owner && unique(r)).map((r) => fromBytea(r.owner!)),
    deps,
  );
  const tokenObject = tokenView(tokenFactsFromRow(token, t));
  const items = page.map((r) => {
    const owner = r.owner && unique(r) ? fromBytea(r.owner) : null;
    return tokenInstanceView({
      id: r.token_id,
      metadata: r.metadata,
      token: tokenObject,
      unique: unique(r),
      owner: owner ? owners.get(owner)! : null,
      holder: owner,
      gateways: deps.gateways,
    });
  });
  const last = page[page.length - 1];
  return {
    items,
    next_page_params:
      rows.length > PAGE_SIZE && last
        ? { unique_token: uniqueToken(last.token_id), items_count: page.length }
        : null,
  };
}
