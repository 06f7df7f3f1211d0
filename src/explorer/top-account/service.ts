import type { Address } from "viem";
import { fromBytea } from "../../db/bytes.js";
import type { ExplorerDeps } from "../deps.js";
import { PAGE_LIMIT, page } from "../paging.js";
import { type TopAccountsCursor, type TopAccountsSort, topAccountsPage } from "./query.js";
import { topAccountCursor, topAccountView } from "./view.js";

/**
 * `/addresses` (the frontend's top accounts). total_supply is null as in Blockscout without a market-data source
 * (the frontend then hides the percentage column).
 */
export async function topAccounts(
  deps: ExplorerDeps,
  sort: TopAccountsSort | null,
  after: TopAccountsCursor | null,
) {
  const p = await page({
    rows: await topAccountsPage(deps.db, sort, after, PAGE_LIMIT),
    cursor: topAccountCursor,
    addressesOf: (rows) => rows.map((r) => fromBytea(r.address) as Address),
    deps,
    render: (rows, addresses) => rows.map((r) => topAccountView(r, addresses)),
  });
  // No price source: Blockscout's exchange_rate (the coin's fiat value) is null without one.
  return { ...p, exchange_rate: null, total_supply: null };
}
