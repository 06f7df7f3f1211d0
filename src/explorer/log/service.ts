import type { Address, Hex } from "viem";
import { fromBytea } from "../../db/bytes.js";
import { verifiedAbisFor } from "../decoding/abi.js";
import type { ExplorerDeps } from "../deps.js";
import { loadAddressObjects } from "../objects/address-facts.js";
import { indexedChainId } from "../objects/verified-store.js";
import { PAGE_SIZE, splitPage } from "../paging.js";
import { addressLogsPage, type LogCursor, type LogRow, transactionLogsPage } from "./query.js";
import { logAddresses, logView } from "./view.js";

async function render(deps: ExplorerDeps, rows: readonly LogRow[], withSmartContract: boolean) {
  if (!rows.length) return [];
  const emitters = rows.map((r) => fromBytea(r.address) as Address);
  const [addresses, chainId] = await Promise.all([
    loadAddressObjects(deps.db, logAddresses(rows, withSmartContract), deps),
    indexedChainId(deps.db),
  ]);
  const abis = chainId === null ? new Map() : await verifiedAbisFor(deps.db, chainId, emitters);
  return rows.map((r) => logView(r, { addresses, abis, withSmartContract }));
}

/** `/transactions/{hash}/logs`: next_page_params {index, items_count, transaction_hash}. */
export async function transactionLogs(deps: ExplorerDeps, hash: Hex, afterIndex: number | null) {
  const rows = await transactionLogsPage(deps.db, hash, afterIndex, PAGE_SIZE + 1);
  const p = splitPage(rows, (r) => ({ index: r.log_index, transaction_hash: fromBytea(r.transaction_hash) }));
  return { items: await render(deps, p.rows, false), next_page_params: p.next_page_params };
}

/** `/addresses/{h}/logs` (`topic=`): next_page_params {block_number, index, items_count, transaction_index}. */
export async function addressLogs(
  deps: ExplorerDeps,
  address: Address,
  topic: Hex | null,
  before: LogCursor | null,
) {
  const rows = await addressLogsPage(deps.db, address, topic, before, PAGE_SIZE + 1);
  const p = splitPage(
    rows,
    (r) => ({ block_number: r.block_number, index: r.log_index, transaction_index: r.transaction_index }),
    topic ? { topic } : {},
  );
  return { items: await render(deps, p.rows, true), next_page_params: p.next_page_params };
}
