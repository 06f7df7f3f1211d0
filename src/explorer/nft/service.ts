import { type Address, getAddress } from "viem";
import { fromBytea } from "../../db/bytes.js";
import type { Queryable } from "../../db/db.js";
import type { ExplorerDeps } from "../deps.js";
import { addressObjectFromColumns } from "../objects/address-facts.js";
import type { NftCursor, NftType } from "../objects/nft-params.js";
import { NO_VERIFIED_CONTRACTS } from "../objects/verified-store.js";
import { PAGE_SIZE, queryNftPage } from "./query.js";
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
  const rows = await queryNftPage(db, holder, types, cursor);
  if (!rows.length) return { items: [], next_page_params: null };
  const page = rows.slice(0, PAGE_SIZE);
  const owner = await addressObjectFromColumns(holder, rows[0]!, deps, verifiedSelf);
  const ctx: NftPageContext = {
    holderHash: getAddress(holder),
    owner,
    gateways: deps.gateways ?? {},
    token: pageTokenViews(),
  };
  const items = page.map((r) => nftItemView(r, ctx));
  const last = page[page.length - 1]!;
  return {
    items,
    next_page_params:
      rows.length > PAGE_SIZE
        ? {
            items_count: page.length,
            token_contract_address_hash: fromBytea(last.token_address),
            token_id: last.token_id,
            token_type: last.token_type,
          }
        : null,
  };
}
