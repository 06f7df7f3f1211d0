import type { Address } from "viem";
import { fromBytea } from "../../db/bytes.js";
import type { ExplorerDeps } from "../deps.js";
import { PAGE_LIMIT, page } from "../paging.js";
import { type HotContractsCursor, type HotContractsSort, hotContractsPage, type Scale } from "./query.js";
import { hotContractCursor, hotContractView } from "./view.js";

/**
 * `/stats/hot-smart-contracts`: the contracts with the most transactions (or gas used) in the scale's window up to
 * now. next_page_params carries the scale and the cursor; Blockscout drops its items_count.
 */
export async function hotContracts(
  deps: ExplorerDeps,
  scale: Scale,
  sort: HotContractsSort | null,
  after: HotContractsCursor | null,
  now = Math.floor(Date.now() / 1000),
) {
  const p = await page({
    rows: await hotContractsPage(deps.db, scale, now, sort, after, PAGE_LIMIT),
    cursor: hotContractCursor,
    keep: { scale },
    addressesOf: (rows) => rows.map((r) => fromBytea(r.address) as Address),
    deps,
    render: (rows, addresses) => rows.map((r) => hotContractView(r, addresses)),
  });
  if (!p.next_page_params) return p;
  const { items_count: _dropped, ...next } = p.next_page_params;
  return { items: p.items, next_page_params: next };
}
