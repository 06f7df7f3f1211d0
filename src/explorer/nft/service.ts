import { type Address, getAddress } from "viem";
import { fromBytea } from "../../db/bytes.js";
import type { Queryable } from "../../db/db.js";
import type { ExplorerDeps } from "../deps.js";
import { NFT_TYPES, type NftCursor, type NftType } from "../nft-params.js";
import { addressObjectsFromColumns, loadAddressObject } from "../objects/address-facts.js";
import { NO_VERIFIED_CONTRACTS } from "../objects/verified-store.js";
import { page } from "../paging.js";
import { type CollectionCursor, collectionInstances, collectionRows, queryNftPage } from "./query.js";
import {
  collectionItemsView,
  type NftCollectionsPage,
  type NftPage,
  type NftPageContext,
  nftItemView,
  pageTokenViews,
} from "./view.js";

/**
 * GET /addresses/{h}/nft: one page of an address's NFTs, in the fixed type order. One statement brings the page,
 * its tokens and the holder's address facts; the verified-contract lookup of the holder runs alongside it.
 */
export async function nftPage(
  db: Queryable,
  holder: Address,
  types: readonly NftType[],
  cursor: NftCursor | null,
  deps: Omit<ExplorerDeps, "db">,
): Promise<NftPage> {
  const verifiedSelf = (deps.verified ?? NO_VERIFIED_CONTRACTS)([holder.toLowerCase() as Address]);
  // A rejected lookup must not go unhandled while the page query is still running.
  verifiedSelf.catch(() => {});
  return page({
    rows: await queryNftPage(db, holder, types, cursor),
    // Upstream's keys in alphabetical order, items_count first.
    cursor: (last) => ({
      items_count: 0,
      token_contract_address_hash: fromBytea(last.token_address),
      token_id: last.token_id,
      token_type: last.token_type,
    }),
    render: async (rows) => {
      // Every row carries the holder's facts.
      const owners = await addressObjectsFromColumns([[holder, rows[0]!]], deps, verifiedSelf);
      const owner = owners.get(holder.toLowerCase() as Address)!;
      const ctx: NftPageContext = {
        holderHash: getAddress(holder),
        owner,
        gateways: deps.gateways ?? {},
        token: pageTokenViews(),
      };
      return rows.map((r) => nftItemView(r, ctx));
    },
  });
}

/**
 * GET /addresses/{h}/nft/collections: the holder's NFT contracts (type order, then contract), ≤ 9 instances each.
 * `amount` is the number of distinct ids held, as upstream counts it (for ERC-721 that is also its balance).
 */
export async function nftCollectionsPage(
  db: Queryable,
  holder: Address,
  types: readonly NftType[],
  cursor: CollectionCursor | null,
  deps: Omit<ExplorerDeps, "db">,
): Promise<NftCollectionsPage> {
  const cursorRank = cursor ? NFT_TYPES.indexOf(cursor.tokenType) : -1;
  const ranked = types.filter((t) => NFT_TYPES.indexOf(t) >= cursorRank);
  if (!ranked.length) return { items: [], next_page_params: null };
  return page({
    rows: await collectionRows(db, holder, ranked, cursor, cursorRank),
    // Upstream's keys in alphabetical order, items_count first.
    cursor: (last) => ({
      items_count: 0,
      token_contract_address_hash: fromBytea(last.token_address),
      token_type: last.token_type,
    }),
    render: async (rows) => {
      const instances = await collectionInstances(db, holder, rows);
      const owner = await loadAddressObject(db, holder, deps);
      return collectionItemsView(rows, instances, { holder, owner, gateways: deps.gateways ?? {} });
    },
  });
}
