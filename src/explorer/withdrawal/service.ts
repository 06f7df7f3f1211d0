import type { Address, Hex } from "viem";
import { fromBytea } from "../../db/bytes.js";
import type { ExplorerDeps } from "../deps.js";
import { PAGE_LIMIT, page } from "../paging.js";
import {
  addressWithdrawalsPage,
  blockNumberOf,
  blockWithdrawalsPage,
  withdrawalsPage,
  withdrawalTotals,
} from "./query.js";
import { addressWithdrawalView, blockWithdrawalView, withdrawalCursor, withdrawalView } from "./view.js";

/** `/blocks/{number or hash}/withdrawals`; null for a block we have not indexed (404). */
export async function blockWithdrawals(deps: ExplorerDeps, ref: number | Hex, beforeIndex: bigint | null) {
  const n = await blockNumberOf(deps.db, ref);
  if (n === null) return null;
  return page({
    rows: await blockWithdrawalsPage(deps.db, n, beforeIndex, PAGE_LIMIT),
    cursor: withdrawalCursor,
    addressesOf: (rows) => rows.map((r) => fromBytea(r.address) as Address),
    deps,
    render: (rows, addresses) => rows.map((r) => blockWithdrawalView(r, addresses)),
  });
}

/** `/addresses/{h}/withdrawals`. */
export async function addressWithdrawals(deps: ExplorerDeps, address: Address, beforeIndex: bigint | null) {
  return page({
    rows: await addressWithdrawalsPage(deps.db, address, beforeIndex, PAGE_LIMIT),
    cursor: withdrawalCursor,
    render: (rows) => rows.map(addressWithdrawalView),
  });
}

/** `/withdrawals`: the chain's withdrawals, newest (highest index) first. */
export async function chainWithdrawals(deps: ExplorerDeps, beforeIndex: bigint | null) {
  // Blockscout answers the cursor index 0 with an empty page (nothing is below it).
  if (beforeIndex === 0n) return { items: [], next_page_params: null };
  return page({
    rows: await withdrawalsPage(deps.db, beforeIndex, PAGE_LIMIT),
    cursor: withdrawalCursor,
    addressesOf: (rows) => rows.map((r) => fromBytea(r.address) as Address),
    deps,
    render: (rows, addresses) => rows.map((r) => withdrawalView(r, addresses)),
  });
}

/** `/withdrawals/counters`: decimal strings, as Blockscout's cached counters. */
export async function withdrawalCounters(deps: ExplorerDeps) {
  const t = await withdrawalTotals(deps.db);
  return { withdrawals_count: t.count, withdrawals_sum: t.sum };
}
