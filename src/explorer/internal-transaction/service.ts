import type { Address, Hex } from "viem";
import type { ExplorerDeps } from "../deps.js";
import { loadAddressObjects } from "../objects/address-facts.js";
import { PAGE_SIZE, splitPage } from "../paging.js";
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

async function page(
  deps: ExplorerDeps,
  rows: InternalTxRow[],
  keep: Record<string, unknown> = {},
  cursor: (r: InternalTxRow) => Record<string, unknown> = internalTxCursor,
) {
  const p = splitPage(rows, cursor, keep);
  const addresses = await loadAddressObjects(deps.db, internalTxAddresses(p.rows), deps);
  return { items: p.rows.map((r) => internalTxView(r, addresses)), next_page_params: p.next_page_params };
}

/**
 * `/transactions/{hash}/internal-transactions`. A block indexed without traces has no frames: the list is empty,
 * as Blockscout's is while a block's internal transactions are not fetched.
 */
export async function transactionInternalTxs(deps: ExplorerDeps, hash: Hex, afterIndex: number | null) {
  return page(deps, await transactionInternalTxsPage(deps.db, hash, afterIndex, PAGE_SIZE + 1));
}

/** `/addresses/{h}/internal-transactions` (`filter=from|to`). */
export async function addressInternalTxs(
  deps: ExplorerDeps,
  address: Address,
  direction: InternalTxDirection,
  before: InternalTxCursor | null,
) {
  const rows = await addressInternalTxsPage(deps.db, address, direction, before, PAGE_SIZE + 1);
  return page(deps, rows, direction ? { filter: direction } : {});
}

/** `/internal-transactions`: the chain's frames, newest first (top-level calls left out, as in the other lists). */
export async function allInternalTxs(deps: ExplorerDeps, before: InternalTxCursor | null) {
  return page(deps, await allInternalTxsPage(deps.db, before, PAGE_SIZE + 1));
}

/**
 * `/blocks/{b}/internal-transactions`: the block's frames in execution order (top-level calls left out). The
 * request's `type` and `call_type` stay in next_page_params, as Blockscout keeps the request's parameters.
 */
export async function blockInternalTxs(
  deps: ExplorerDeps,
  blockNumber: number,
  filter: BlockInternalTxFilter,
  keep: Record<string, unknown>,
  after: { transactionIndex: number; index: number } | null,
) {
  const rows = await blockInternalTxsPage(deps.db, blockNumber, filter, after, PAGE_SIZE + 1);
  return page(deps, rows, keep, blockInternalTxCursor);
}
