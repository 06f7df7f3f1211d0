import type { Address } from "viem";
import { fromBytea } from "../../db/bytes.js";
import type { Queryable } from "../../db/db.js";
import type { ExplorerDeps } from "../deps.js";
import type { NftType } from "../nft-params.js";
import { loadAddressObject } from "../objects/address-facts.js";
import type { TokenInstanceObject } from "../objects/token-instance-view.js";
import { tokenFactsFromRow, tokenView } from "../objects/token-view.js";
import { page } from "../paging.js";
import { tokenColumns } from "../token/query.js";
import { instanceRow, instancesPage } from "./query.js";
import {
  type InstancesPage,
  instancesCursor,
  instanceUnique,
  instanceView,
  inventoryItemView,
  inventoryOwner,
} from "./view.js";

/** GET /tokens/{h}/instances; null when the token is unknown or an ERC-20 (upstream's 404). */
export async function tokenInstances(
  db: Queryable,
  token: Address,
  before: bigint | null,
  deps: Omit<ExplorerDeps, "db">,
): Promise<InstancesPage | null> {
  const t = await tokenColumns(db, token);
  if (t === null || t.t_type === "ERC-20") return null;
  const type = t.t_type as NftType;
  const ctx = { token: tokenView(tokenFactsFromRow(token, t)), gateways: deps.gateways ?? {} };
  return page({
    rows: await instancesPage(db, token, before),
    cursor: instancesCursor,
    addressesOf: (rows) => rows.map((r) => inventoryOwner(type, r)).filter((a) => a !== null),
    deps: { ...deps, db },
    render: (rows, owners) => rows.map((r) => inventoryItemView(type, r, { ...ctx, owners })),
  });
}

/**
 * GET /tokens/{a}/instances/{id}: null (a 404, as upstream) when the token is unknown or an ERC-20, or the id was never
 * minted (no transfer of it seen; a burned id stays an instance).
 * `owner` is the single holder when the instance is unique (ERC-721 owner; sole holder of a supply-1 id).
 */
export async function tokenInstance(
  db: Queryable,
  address: Address,
  tokenId: bigint,
  deps: Omit<ExplorerDeps, "db">,
): Promise<TokenInstanceObject | null> {
  const r = await instanceRow(db, address, tokenId);
  if (!r) return null;
  const owner = instanceUnique(r) && r.owner ? await loadAddressObject(db, fromBytea(r.owner), deps) : null;
  return instanceView(address, tokenId, r, owner, deps.gateways ?? {});
}
