import type { Address } from "viem";
import type { ExplorerDeps } from "../deps.js";
import { PAGE_LIMIT, page } from "../paging.js";
import { TOKEN_TYPES, type TokenType, tokenBalances } from "./query.js";
import { afterCursor, type TokensCursor, tokenBalanceView, tokensCursor } from "./view.js";

/** `/addresses/{h}/token-balances`: every current balance, unpaged (Blockscout answers a bare array). */
export async function addressTokenBalances(deps: ExplorerDeps, holder: Address) {
  return afterCursor(await tokenBalances(deps.db, holder, TOKEN_TYPES), null).map(tokenBalanceView);
}

/**
 * `/addresses/{h}/tokens?type=`: paged by (value desc, token, id). A holder's balances are read whole and cut
 * after the cursor: Lookout keeps no index by value (the number of tokens one address holds bounds the work).
 * `type` is not repeated in next_page_params (Blockscout drops it).
 */
export async function addressTokens(
  deps: ExplorerDeps,
  holder: Address,
  types: readonly TokenType[] | null,
  cursor: TokensCursor | null,
) {
  const rows = afterCursor(await tokenBalances(deps.db, holder, types ?? TOKEN_TYPES), cursor);
  return page({
    rows: rows.slice(0, PAGE_LIMIT),
    cursor: tokensCursor,
    render: (p) => p.map(tokenBalanceView),
  });
}
