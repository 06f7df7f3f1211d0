import type { Address, Hex } from "viem";
import { fromBytea, toBytea } from "../../db/bytes.js";
import type { Queryable } from "../../db/db.js";
import type { Gateways } from "../../tokens/metadata/index.js";
import { type AddressDeps, loadAddressObjects } from "../address/query.js";
import { verifiedAbisFor } from "../decoding/abi.js";
import { decodeFunctionInput, methodName } from "../decoding/function-input.js";
import { PAGE_SIZE, splitPage } from "../paging.js";
import { indexedChainId } from "../transaction/query.js";
import {
  addressTransfersPage,
  type TokenTransferRow,
  type TransferCursor,
  type TransferDirection,
  type TransferScope,
  transactionTransfersPage,
  transfersPage,
} from "./query.js";
import { type TokenTransferItem, tokenTransferView, transferAddresses, transferCursor } from "./view.js";

export type ExplorerDb = AddressDeps & { db: Queryable; gateways?: Partial<Gateways> };

/** Method names of the transactions behind the transfers (Transaction.method_name), from verified ABIs. */
async function transactionMethods(db: Queryable, hashes: readonly Hex[]): Promise<Map<Hex, string | null>> {
  const out = new Map<Hex, string | null>();
  if (!hashes.length) return out;
  const rows = await db.query<{ hash: Uint8Array; to_address: Uint8Array | null; input: Uint8Array }>(
    "select hash, to_address, input from transactions where hash = any($1::bytea[])",
    [[...new Set(hashes)].map(toBytea)],
  );
  const chainId = await indexedChainId(db);
  const callees = rows.filter((r) => r.to_address).map((r) => fromBytea(r.to_address!) as Address);
  const abis = chainId === null ? new Map() : await verifiedAbisFor(db, chainId, callees);
  for (const r of rows) {
    const input = fromBytea(r.input);
    const abi = r.to_address ? abis.get(fromBytea(r.to_address) as Address) : undefined;
    // A transfer is emitted by code, so its transaction's callee is a contract.
    out.set(
      fromBytea(r.hash),
      methodName(abi ? decodeFunctionInput(abi, input) : null, input, !!r.to_address),
    );
  }
  return out;
}

export async function renderTransfers(
  deps: ExplorerDb,
  rows: readonly TokenTransferRow[],
): Promise<TokenTransferItem[]> {
  if (!rows.length) return [];
  const [addresses, methods] = await Promise.all([
    loadAddressObjects(deps.db, transferAddresses(rows), deps),
    transactionMethods(
      deps.db,
      rows.map((r) => fromBytea(r.transaction_hash)),
    ),
  ]);
  return rows.map((r) => tokenTransferView(r, { addresses, methods, gateways: deps.gateways ?? {} }));
}

async function page(deps: ExplorerDb, rows: TokenTransferRow[], keep: Record<string, unknown> = {}) {
  const p = splitPage(rows, transferCursor, keep);
  return { items: await renderTransfers(deps, p.rows), next_page_params: p.next_page_params };
}

/** `/transactions/{hash}/token-transfers` (`type=` filters by token type). */
export async function transactionTokenTransfers(
  deps: ExplorerDb,
  hash: Hex,
  types: readonly string[] | null,
  after: TransferCursor | null,
) {
  const rows = await transactionTransfersPage(deps.db, hash, types, after, PAGE_SIZE + 1);
  return page(deps, rows, types ? { type: types.join(",") } : {});
}

/** The first transfers of a transaction for its details (`token_transfers`, `token_transfers_overflow`). */
export async function transactionTransfersPreview(deps: ExplorerDb, hash: Hex, limit = PAGE_SIZE) {
  const rows = await transactionTransfersPage(deps.db, hash, null, null, limit + 1);
  return { items: await renderTransfers(deps, rows.slice(0, limit)), overflow: rows.length > limit };
}

/** `/addresses/{h}/token-transfers` (`filter=from|to`, `type=`, `token=`). */
export async function addressTokenTransfers(
  deps: ExplorerDb,
  address: Address,
  o: { direction: TransferDirection; types: readonly string[] | null; token: Address | null },
  before: TransferCursor | null,
) {
  const rows = await addressTransfersPage(deps.db, address, o, before, PAGE_SIZE + 1);
  const keep = {
    ...(o.direction ? { filter: o.direction } : {}),
    ...(o.types ? { type: o.types.join(",") } : {}),
    ...(o.token ? { token: o.token } : {}),
  };
  return page(deps, rows, keep);
}

/**
 * `/token-transfers` (`type=`), `/tokens/{h}/transfers` and `/tokens/{h}/instances/{id}/transfers`: newest first.
 */
export async function tokenTransfers(
  deps: ExplorerDb,
  scope: TransferScope,
  types: readonly string[] | null,
  before: TransferCursor | null,
) {
  const rows = await transfersPage(deps.db, scope, types, before, PAGE_SIZE + 1);
  return page(deps, rows, types ? { type: types.join(",") } : {});
}
