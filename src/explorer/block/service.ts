import type { Address, Hex } from "viem";
import type { ExplorerDeps } from "../deps.js";
import { loadAddressObjects } from "../objects/address-facts.js";
import { PAGE_LIMIT, page } from "../paging.js";
import {
  type BlockRow,
  blockByHash,
  blockByNumber,
  blockRewards,
  blocksPage,
  internalTransactionsCount,
  minerBlocksPage,
} from "./query.js";
import { type BlockObject, blockView, minerOf } from "./view.js";

/** Block objects of a list: miners' address objects and fees loaded once for all. */
export async function renderBlocks(deps: ExplorerDeps, rows: readonly BlockRow[]): Promise<BlockObject[]> {
  if (!rows.length) return [];
  const [miners, rewards] = await Promise.all([
    loadAddressObjects(deps.db, rows.map(minerOf), deps),
    blockRewards(
      deps.db,
      rows.map((r) => r.number),
    ),
  ]);
  return rows.map((r) =>
    blockView(
      r,
      miners.get(minerOf(r))!,
      rewards.filter((x) => x.block_number === r.number),
    ),
  );
}

/** `/blocks/{number or hash}`: null when not indexed (404). */
export async function blockDetails(deps: ExplorerDeps, id: { number: number } | { hash: Hex }) {
  const row = "number" in id ? await blockByNumber(deps.db, id.number) : await blockByHash(deps.db, id.hash);
  if (!row) return null;
  const [miners, rewards, internal] = await Promise.all([
    loadAddressObjects(deps.db, [minerOf(row)], deps),
    blockRewards(deps.db, [row.number]),
    // Without stored frames the count is unknown (null), not 0.
    row.internal_transactions_indexed ? internalTransactionsCount(deps.db, row.number) : null,
  ]);
  return blockView(row, miners.get(minerOf(row))!, rewards, { internalTransactionsCount: internal });
}

const blockCursor = (r: BlockRow) => ({ block_number: r.number });

/**
 * `/blocks?type=block|uncle|reorg`. Lookout keeps only the canonical chain (a reorg deletes the replaced blocks),
 * so uncles and reorgs are empty lists.
 */
export async function blocksList(
  deps: ExplorerDeps,
  type: "block" | "uncle" | "reorg",
  before: number | null,
) {
  if (type !== "block") return { items: [], next_page_params: null };
  const rows = await blocksPage(deps.db, before, PAGE_LIMIT);
  return page({ rows, cursor: blockCursor, render: (p) => renderBlocks(deps, p) });
}

/** `/addresses/{h}/blocks-validated`. */
export async function blocksValidated(deps: ExplorerDeps, miner: Address, before: number | null) {
  const rows = await minerBlocksPage(deps.db, miner, before, PAGE_LIMIT);
  return page({ rows, cursor: blockCursor, render: (p) => renderBlocks(deps, p) });
}

/** The newest `n` blocks (home page). */
export async function recentBlocks(deps: ExplorerDeps, n: number) {
  return renderBlocks(deps, await blocksPage(deps.db, null, n));
}
