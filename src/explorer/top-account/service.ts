import type { Address } from "viem";
import { fromBytea } from "../../db/bytes.js";
import type { ExplorerDeps } from "../deps.js";
import { loadAddressObjects } from "../objects/address-facts.js";
import { PAGE_SIZE, splitPage } from "../paging.js";
import { type TopAccountsCursor, topAccountsPage } from "./query.js";
import { topAccountCursor, topAccountView } from "./view.js";

/**
 * `/addresses` (the frontend's top accounts). total_supply is null as in Blockscout without a market-data source
 * (the frontend then hides the percentage column).
 */
export async function topAccounts(deps: ExplorerDeps, after: TopAccountsCursor | null) {
  const p = splitPage(await topAccountsPage(deps.db, after, PAGE_SIZE + 1), topAccountCursor);
  const addresses = await loadAddressObjects(
    deps.db,
    p.rows.map((r) => fromBytea(r.address) as Address),
    deps,
  );
  return {
    items: p.rows.map((r) => topAccountView(r, addresses)),
    next_page_params: p.next_page_params,
    total_supply: null,
  };
}
