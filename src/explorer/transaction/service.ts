import type { Abi, Address, Hex } from "viem";
import { fromBytea } from "../../db/bytes.js";
import type { Queryable } from "../../db/db.js";
import { verifiedAbisFor } from "../decoding/abi.js";
import { type DecodedInput, decodeFunctionInput } from "../decoding/function-input.js";
import type { ExplorerDeps, TokenTransfersOfTransaction } from "../deps.js";
import { addressObjectsFromColumns, factColumns } from "../objects/address-facts.js";
import { indexedChainId } from "../objects/verified-store.js";
import { PAGE_LIMIT, page } from "../paging.js";
import { usecTimestamp } from "../timestamp.js";
import { sortedAddressTransactionsPage } from "./address-sort.js";
import type { AddressTxSort, SortedTxCursor } from "./filters.js";
import {
  type AddressTxFilter,
  addressTransactionsPage,
  blockTransactionsPage,
  filteredTransactionsPage,
  type TransactionFilter,
  type TransactionRow,
  type TxCursor,
  transactionAuthorizations,
  transactionByHash,
  transactionsPage,
} from "./query.js";
import { feeFields, type TransactionContext, type TransactionObject, transactionView } from "./view.js";

/**
 * The verified ABIs (own or implementation's) of the rows' callees, by lower-case address; no statement when the
 * page's rows say no callee is verified.
 */
async function calleeAbis(db: Queryable, rows: readonly TransactionRow[]): Promise<Map<Address, Abi>> {
  const calls = rows.filter((r) => r.to_address && r.callee_verified);
  if (!calls.length) return new Map();
  const chainId = await indexedChainId(db);
  if (chainId === null) return new Map();
  return verifiedAbisFor(
    db,
    chainId,
    calls.map((r) => fromBytea(r.to_address!) as Address),
  );
}

/** Decoded inputs of the rows whose callee's ABI is known. */
function decodeInputs(
  rows: readonly TransactionRow[],
  abis: ReadonlyMap<Address, Abi>,
): Map<Hex, DecodedInput> {
  const out = new Map<Hex, DecodedInput>();
  for (const r of rows) {
    const abi =
      r.to_address && r.input.length >= 4 ? abis.get(fromBytea(r.to_address) as Address) : undefined;
    const d = abi ? decodeFunctionInput(abi, fromBytea(r.input)) : null;
    if (d) out.set(fromBytea(r.hash), d);
  }
  return out;
}

/** The address facts each row brought, for one verified-contract lookup per page. */
function* rowFacts(rows: readonly TransactionRow[]) {
  for (const r of rows) {
    yield [r.from_address, factColumns(r, "af")] as const;
    if (r.to_address) yield [r.to_address, factColumns(r, "at")] as const;
    if (r.contract_address) yield [r.contract_address, factColumns(r, "ac")] as const;
  }
}

/**
 * Everything the views of these rows share. The rows' statement brought the head, the block time and the address
 * facts; what is left is the verified-contract lookup and, for verified callees only, the ABIs.
 */
export async function transactionContext(
  deps: ExplorerDeps,
  rows: readonly TransactionRow[],
): Promise<TransactionContext> {
  const [addresses, abis] = await Promise.all([
    addressObjectsFromColumns(rowFacts(rows), deps),
    calleeAbis(deps.db, rows),
  ]);
  return {
    head: rows[0]?.ctx_head ?? 0,
    averageBlockTimeMs: rows[0]?.ctx_block_time_ms ?? 0,
    addresses,
    decoded: decodeInputs(rows, abis),
    abis,
  };
}

export async function renderTransactions(
  deps: ExplorerDeps,
  rows: readonly TransactionRow[],
): Promise<TransactionObject[]> {
  if (!rows.length) return [];
  const ctx = await transactionContext(deps, rows);
  return rows.map((r) => transactionView(r, ctx));
}

/** `/transactions/{hash}`: null when the hash is not indexed (404). */
export async function transactionDetails(
  deps: ExplorerDeps & { tokenTransfers?: TokenTransfersOfTransaction },
  hash: Hex,
): Promise<TransactionObject | null> {
  const row = await transactionByHash(deps.db, hash);
  if (!row) return null;
  const [ctx, tokenTransfers, authorizations] = await Promise.all([
    transactionContext(deps, [row]),
    deps.tokenTransfers ? deps.tokenTransfers(hash, row.block_number) : Promise.resolve(undefined),
    // Only a set-code transaction has a list to read.
    row.type === 4 ? transactionAuthorizations(deps.db, row.block_number, row.index) : Promise.resolve([]),
  ]);
  return transactionView(row, {
    ...ctx,
    single: true,
    authorizations,
    ...(tokenTransfers ? { tokenTransfers } : {}),
  });
}

const txCursor = (r: TransactionRow) => ({ block_number: r.block_number, index: r.index });

/**
 * Blockscout's next_page_params of an address's transactions (Transaction.address_transactions_next_page_params,
 * whatever the sort): every key any sort pages by, in its key order. `inserted_at` is the block's time: Lookout
 * records no insertion time, and the position (block_number, index) already tells transactions apart.
 */
const addressTxCursor = (r: TransactionRow) => ({
  block_number: r.block_number,
  fee: feeFields(r).fee.value,
  hash: fromBytea(r.hash),
  index: r.index,
  inserted_at: usecTimestamp(r.timestamp),
  items_count: 0,
  value: r.value,
});

/** A page of transaction objects from up to PAGE_LIMIT rows (filters are not repeated, as Blockscout drops them). */
const txPage = (
  deps: ExplorerDeps,
  rows: readonly TransactionRow[],
  cursor: (r: TransactionRow) => Record<string, unknown> = txCursor,
) => page({ rows, cursor, render: (p) => renderTransactions(deps, p) });

/** `/transactions?filter=validated` (the default), with Blockscout's `type` and `method` filters. */
export async function validatedTransactions(
  deps: ExplorerDeps,
  cursor: TxCursor | null,
  filter: TransactionFilter = { types: null, methods: null },
) {
  const rows =
    filter.types || filter.methods
      ? await filteredTransactionsPage(deps.db, filter, cursor, PAGE_LIMIT)
      : await transactionsPage(deps.db, cursor, PAGE_LIMIT);
  return txPage(deps, rows);
}

/** `/blocks/{n}/transactions` (`type=`: any of those types, as Blockscout's type filter). */
export async function blockTransactions(
  deps: ExplorerDeps,
  blockNumber: number,
  afterIndex: number | null,
  types: TransactionFilter["types"] = null,
) {
  const rows = await blockTransactionsPage(deps.db, blockNumber, afterIndex, PAGE_LIMIT, types);
  return txPage(deps, rows);
}

/** `/addresses/{h}/transactions` (`filter=to|from`, Blockscout's `sort` and `order`; null: newest first). */
export async function addressTransactions(
  deps: ExplorerDeps,
  address: Address,
  filter: AddressTxFilter,
  sort: AddressTxSort | null,
  cursor: SortedTxCursor | null,
) {
  const rows =
    sort && !(sort.by === "block_number" && sort.order === "desc")
      ? await sortedAddressTransactionsPage(deps.db, address, filter, sort, cursor, PAGE_LIMIT)
      : await addressTransactionsPage(deps.db, address, filter, cursor, PAGE_LIMIT);
  return txPage(deps, rows, addressTxCursor);
}

/** The newest `n` transactions (home page). */
export async function recentTransactions(deps: ExplorerDeps, n: number) {
  return renderTransactions(deps, await transactionsPage(deps.db, null, n));
}
