import type { Address, Hex } from "viem";
import { fromBytea } from "../../db/bytes.js";
import { verifiedAbisFor } from "../decoding/abi.js";
import type { ExplorerDeps } from "../deps.js";
import { loadAddressObjects } from "../objects/address-facts.js";
import { indexedChainId } from "../objects/verified-store.js";
import { PAGE_LIMIT, page } from "../paging.js";
import { addressLogsPage, type LogCursor, type LogRow, transactionLogsPage } from "./query.js";
import { logAddresses, logView } from "./view.js";

/** Log items: the emitters' ABIs decode the logs; the address objects load alongside the chain id. */
async function render(deps: ExplorerDeps, rows: readonly LogRow[], withSmartContract: boolean) {
  const emitters = rows.map((r) => fromBytea(r.address) as Address);
  const [addresses, chainId] = await Promise.all([
    loadAddressObjects(deps.db, logAddresses(rows, withSmartContract), deps),
    indexedChainId(deps.db),
  ]);
  const abis = chainId === null ? new Map() : await verifiedAbisFor(deps.db, chainId, emitters);
  return rows.map((r) => logView(r, { addresses, abis, withSmartContract }));
}

/** `/transactions/{hash}/logs`: next_page_params {block_number, index, items_count}, as Blockscout's Log paging. */
export async function transactionLogs(deps: ExplorerDeps, hash: Hex, afterIndex: number | null) {
  return page({
    rows: await transactionLogsPage(deps.db, hash, afterIndex, PAGE_LIMIT),
    cursor: (r) => ({ block_number: r.block_number, index: r.log_index }),
    render: (rows) => render(deps, rows, false),
  });
}

/** `/addresses/{h}/logs` (`topic=`): next_page_params {block_number, index, items_count, transaction_index}. */
export async function addressLogs(
  deps: ExplorerDeps,
  address: Address,
  topic: Hex | null,
  before: LogCursor | null,
) {
  return page({
    rows: await addressLogsPage(deps.db, address, topic, before, PAGE_LIMIT),
    cursor: (r) => ({
      block_number: r.block_number,
      index: r.log_index,
      transaction_index: r.transaction_index,
    }),
    keep: topic ? { topic } : {},
    render: (rows) => render(deps, rows, true),
  });
}
