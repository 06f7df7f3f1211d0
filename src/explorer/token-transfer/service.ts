import type { Address, Hex } from "viem";
import { fromBytea } from "../../db/bytes.js";
import type { Queryable } from "../../db/db.js";
import { verifiedAbisFor } from "../decoding/abi.js";
import { decodeFunctionInput, methodName } from "../decoding/function-input.js";
import type { ExplorerDeps } from "../deps.js";
import { addressObjectsFromColumns, factColumns } from "../objects/address-facts.js";
import { indexedChainId } from "../objects/verified-store.js";
import { PAGE_LIMIT, PAGE_SIZE, page } from "../paging.js";
import {
  addressTransfersPage,
  type TokenTransferRow,
  type TransferCursor,
  type TransferDirection,
  type TransferScope,
  transactionTransfersPage,
  transfersPage,
} from "./query.js";
import { type TokenTransferItem, tokenTransferView, transferCursor } from "./view.js";

/**
 * Method names of the transactions behind the transfers (Transaction.method_name): the rows carry each
 * transaction's callee and selector; ABIs are looked up only for callees the rows say are verified.
 */
async function transactionMethods(
  db: Queryable,
  rows: readonly TokenTransferRow[],
): Promise<Map<Hex, string | null>> {
  const out = new Map<Hex, string | null>();
  const verified = rows.filter((r) => r.callee_verified && r.x_to_address);
  const chainId = verified.length ? await indexedChainId(db) : null;
  const abis =
    chainId === null
      ? new Map()
      : await verifiedAbisFor(
          db,
          chainId,
          verified.map((r) => fromBytea(r.x_to_address!) as Address),
        );
  for (const r of rows) {
    const input = fromBytea(r.x_input);
    const abi = r.x_to_address ? abis.get(fromBytea(r.x_to_address) as Address) : undefined;
    // A transfer is emitted by code, so its transaction's callee is a contract.
    out.set(
      fromBytea(r.transaction_hash),
      methodName(abi ? decodeFunctionInput(abi, input) : null, input, !!r.x_to_address),
    );
  }
  return out;
}

function* rowFacts(rows: readonly TokenTransferRow[]) {
  for (const r of rows) {
    yield [r.from_address, factColumns(r, "af")] as const;
    yield [r.to_address, factColumns(r, "at")] as const;
  }
}

export async function renderTransfers(
  deps: ExplorerDeps,
  rows: readonly TokenTransferRow[],
): Promise<TokenTransferItem[]> {
  if (!rows.length) return [];
  const [addresses, methods] = await Promise.all([
    addressObjectsFromColumns(rowFacts(rows), deps),
    transactionMethods(deps.db, rows),
  ]);
  const ctx = { addresses, methods, gateways: deps.gateways ?? {}, tokens: new Map() };
  return rows.map((r) => tokenTransferView(r, ctx));
}

const transferPage = (
  deps: ExplorerDeps,
  rows: readonly TokenTransferRow[],
  keep?: Record<string, unknown>,
) => page({ rows, cursor: transferCursor, keep, render: (p) => renderTransfers(deps, p) });

/** `/transactions/{hash}/token-transfers` (`type=` filters by token type). */
export async function transactionTokenTransfers(
  deps: ExplorerDeps,
  hash: Hex,
  types: readonly string[] | null,
  after: TransferCursor | null,
) {
  const rows = await transactionTransfersPage(deps.db, hash, types, after, PAGE_LIMIT);
  return transferPage(deps, rows);
}

/** The first transfers of a transaction for its details (`token_transfers`, `token_transfers_overflow`). */
export async function transactionTransfersPreview(deps: ExplorerDeps, hash: Hex, limit = PAGE_SIZE) {
  const rows = await transactionTransfersPage(deps.db, hash, null, null, limit + 1);
  return { items: await renderTransfers(deps, rows.slice(0, limit)), overflow: rows.length > limit };
}

/** `/addresses/{h}/token-transfers` (`filter=from|to`, `type=`, `token=`). */
export async function addressTokenTransfers(
  deps: ExplorerDeps,
  address: Address,
  o: { direction: TransferDirection; types: readonly string[] | null; token: Address | null },
  before: TransferCursor | null,
) {
  const rows = await addressTransfersPage(deps.db, address, o, before, PAGE_LIMIT);
  // Blockscout repeats `token` in next_page_params and drops `filter` and `type`.
  return transferPage(deps, rows, o.token ? { token: o.token } : {});
}

/**
 * `/token-transfers` (`type=`), `/tokens/{h}/transfers` and `/tokens/{h}/instances/{id}/transfers`: newest first.
 */
export async function tokenTransfers(
  deps: ExplorerDeps,
  scope: TransferScope,
  types: readonly string[] | null,
  before: TransferCursor | null,
) {
  const rows = await transfersPage(deps.db, scope, types, before, PAGE_LIMIT);
  return transferPage(deps, rows);
}
