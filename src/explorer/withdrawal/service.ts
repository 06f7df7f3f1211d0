import type { Address, Hex } from "viem";
import { fromBytea } from "../../db/bytes.js";
import type { ExplorerDeps } from "../deps.js";
import { PAGE_LIMIT, page } from "../paging.js";
import { addressWithdrawalsPage, blockNumberOf, blockWithdrawalsPage } from "./query.js";
import { addressWithdrawalView, blockWithdrawalView, withdrawalCursor } from "./view.js";

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
