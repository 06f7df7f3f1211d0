import type { Address, Hex } from "viem";
import type { ExplorerDeps } from "../deps.js";
import { PAGE_LIMIT, page } from "../paging.js";
import {
  addressInternalTxsPage,
  allInternalTxsPage,
  type BlockInternalTxFilter,
  blockInternalTxsPage,
  type InternalTxCursor,
  type InternalTxDirection,
  type InternalTxRow,
  transactionInternalTxsPage,
} from "./query.js";
import { blockInternalTxCursor, internalTxAddresses, internalTxCursor, internalTxView } from "./view.js";

const internalTxPage = (
  deps: ExplorerDeps,
  rows: readonly InternalTxRow[],
  keep?: Record<string, unknown>,
  cursor: (r: InternalTxRow) => Record<string, unknown> = internalTxCursor,
) =>
  page({
    rows,
    cursor,
    keep,
    addressesOf: internalTxAddresses,
    deps,
    render: (p, addresses) => p.map((r) => internalTxView(r, addresses)),
  });

/**
 * `/transactions/{hash}/internal-transactions`, and `/internal-transactions?transaction_hash=` (which keeps the
 * hash in next_page_params, as Blockscout keeps that parameter). A block indexed without traces has no frames: the
 * list is empty, as Blockscout's is while a block's internal transactions are not fetched.
 */
export async function transactionInternalTxs(
  deps: ExplorerDeps,
  hash: Hex,
  afterIndex: number | null,
  keep?: { transaction_hash: Hex },
) {
  return internalTxPage(deps, await transactionInternalTxsPage(deps.db, hash, afterIndex, PAGE_LIMIT), keep);
}

/** `/addresses/{h}/internal-transactions` (`filter=from|to`, not repeated in next_page_params, as Blockscout). */
export async function addressInternalTxs(
  deps: ExplorerDeps,
  address: Address,
  direction: InternalTxDirection,
  before: InternalTxCursor | null,
) {
  const rows = await addressInternalTxsPage(deps.db, address, direction, before, PAGE_LIMIT);
  return internalTxPage(deps, rows);
}

/** `/internal-transactions`: the chain's frames, newest first (top-level calls left out, as in the other lists). */
export async function allInternalTxs(deps: ExplorerDeps, before: InternalTxCursor | null) {
  return internalTxPage(deps, await allInternalTxsPage(deps.db, before, PAGE_LIMIT));
}

/**
 * `/blocks/{b}/internal-transactions`: the block's frames in execution order (top-level calls left out). The
 * request's `call_type` stays in next_page_params, as Blockscout keeps the request's parameters but `type`.
 */
export async function blockInternalTxs(
  deps: ExplorerDeps,
  blockNumber: number,
  filter: BlockInternalTxFilter,
  keep: Record<string, unknown>,
  after: { transactionIndex: number; index: number } | null,
) {
  const rows = await blockInternalTxsPage(deps.db, blockNumber, filter, after, PAGE_LIMIT);
  return internalTxPage(deps, rows, keep, blockInternalTxCursor);
}
