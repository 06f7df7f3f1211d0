import { type Address, getAddress } from "viem";
import { fromBytea } from "../../db/bytes.js";
import type { Queryable } from "../../db/db.js";
import type { ExplorerDeps } from "../deps.js";
import { addressObjectsFromColumns } from "../objects/address-facts.js";
import type { NftCursor, NftType } from "../objects/nft-params.js";
import { NO_VERIFIED_CONTRACTS } from "../objects/verified-store.js";
import { page } from "../paging.js";
import { queryNftPage } from "./query.js";
import { type NftPage, type NftPageContext, nftItemView, pageTokenViews } from "./view.js";

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
