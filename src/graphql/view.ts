import { fromBytea, fromByteaOrNull } from "../db/bytes.js";
import { smartContractView } from "../explorer/smart-contract/view.js";
import type { VerifiedContractRecord } from "../verifier/store/index.js";
import type {
  AddressRow,
  GraphqlBlockRow,
  InternalRow,
  TokenRow,
  TransactionRow,
  TransferRow,
} from "./query.js";

/**
 * Rows as Blockscout's GraphQL objects (camelCase, as Absinthe publishes them). Hashes are lower-case (Blockscout's
 * Hash to_string), numbers of arbitrary size decimal strings. Pure.
 */

const hex = fromBytea;
const hexOrNull = fromByteaOrNull;

/** Relay's global id: base64 of `Type:id` (Absinthe.Relay.Node.to_global_id). */
export const globalId = (type: string, id: string) => Buffer.from(`${type}:${id}`).toString("base64");

export type AddressObject = ReturnType<typeof addressView>;

export function addressView(r: AddressRow) {
  const code = r.code ? hex(r.code) : r.delegate ? `0xef0100${hex(r.delegate).slice(2)}` : null;
  return {
    hash: hex(r.address),
    fetchedCoinBalance: r.balance,
    fetchedCoinBalanceBlockNumber: r.balance_block,
    contractCode: code,
    nonce: r.nonce,
    gasUsed: r.gas_used === null ? null : Number(r.gas_used),
    transactionsCount: r.transactions_count === null ? null : Number(r.transactions_count),
    tokenTransfersCount: r.token_transfers_count === null ? null : Number(r.token_transfers_count),
  };
}

export type TransactionObject = ReturnType<typeof transactionView>;

export function transactionView(r: TransactionRow) {
  const hash = hex(r.hash);
  return {
    id: globalId("Transaction", hash),
    hash,
    blockNumber: r.block_number,
    blockHash: hex(r.block_hash),
    index: r.index,
    cumulativeGasUsed: r.cumulative_gas_used,
    // Blockscout's transaction error: the failed top call frame's (none while the block's frames are not indexed).
    error: r.status === 0 ? r.error : null,
    gas: r.gas,
    gasPrice: r.gas_price,
    gasUsed: r.gas_used,
    input: hex(r.input),
    nonce: String(r.nonce),
    // The signature is not indexed.
    r: null,
    s: null,
    v: null,
    status: r.status === null ? null : r.status === 1 ? "OK" : "ERROR",
    value: r.value,
    fromAddressHash: hex(r.from_address),
    toAddressHash: hexOrNull(r.to_address),
    createdContractAddressHash: hexOrNull(r.contract_address),
    // No mempool is watched: no first-seen time.
    earliestProcessingStart: null,
    revertReason: r.revert_reason,
    maxPriorityFeePerGas: r.max_priority_fee_per_gas,
    maxFeePerGas: r.max_fee_per_gas,
    type: r.type,
    hasErrorInInternalTransactions: r.traced ? r.internal_error : null,
  };
}

const CALL_TYPES = new Set(["call", "callcode", "delegatecall", "staticcall"]);

export function internalTransactionView(r: InternalRow) {
  const hash = hex(r.transaction_hash);
  const create = r.type === "create" || r.type === "create2";
  return {
    id: globalId("InternalTransaction", JSON.stringify({ index: r.index, transaction_hash: hash })),
    callType: r.call_type && CALL_TYPES.has(r.call_type) ? r.call_type.toUpperCase() : null,
    // A creation's input is its init code and its output the code it left (Blockscout's init and created code).
    createdContractCode: create ? hexOrNull(r.output) : null,
    init: create ? hexOrNull(r.input) : null,
    input: create ? null : hexOrNull(r.input),
    output: create ? null : hexOrNull(r.output),
    error: r.error,
    gas: r.gas,
    gasUsed: r.gas_used,
    index: r.index,
    traceAddress: r.trace_address,
    // Blockscout's enum has no CREATE2: a CREATE2 frame is a creation.
    type: create ? "CREATE" : r.type.toUpperCase(),
    value: r.value,
    createdContractAddressHash: hexOrNull(r.created_contract_address),
    fromAddressHash: hex(r.from_address),
    toAddressHash: hexOrNull(r.to_address),
    transactionHash: hash,
    blockNumber: r.block_number,
    transactionIndex: r.transaction_index,
  };
}

export type TokenTransferObject = ReturnType<typeof tokenTransferView>;

/**
 * One log's transfers as Blockscout's token transfer: ERC-20 `amount`; ERC-721 `tokenIds` [id]; ERC-1155
 * TransferSingle `amount` and `tokenIds`, TransferBatch `tokenIds` and `amounts`; ERC-404 ERC20Transfer
 * `amounts` [value] and `tokenIds` [], ERC721Transfer `tokenIds` [id] and `amounts` [] (Indexer.Transform.TokenTransfers).
 */
export function tokenTransferView(rows: readonly TransferRow[]) {
  const r = rows[0]!;
  const hash = hex(r.transaction_hash);
  const ids = rows.map((x) => x.token_id).filter((x): x is string => x !== null);
  let amount: string | null = null;
  let amounts: string[] | null = null;
  let tokenIds: string[] | null = null;
  if (r.kind === "ERC-20") amount = r.amount;
  else if (r.kind === "ERC-721") tokenIds = ids;
  else if (r.kind === "ERC-1155") {
    tokenIds = ids;
    if (r.is_batch) amounts = rows.map((x) => x.amount);
    else amount = r.amount;
  } else if (r.kind === "ERC-404") {
    tokenIds = ids;
    amounts = r.token_id === null ? [r.amount] : [];
  }
  return {
    id: globalId("TokenTransfer", JSON.stringify({ log_index: r.log_index, transaction_hash: hash })),
    amount,
    amounts,
    blockNumber: r.block_number,
    logIndex: r.log_index,
    tokenIds,
    fromAddressHash: hex(r.from_address),
    toAddressHash: hex(r.to_address),
    tokenContractAddressHash: hex(r.token_address),
    transactionHash: hash,
  };
}

/** Transfer rows (ordered by log, then batch position) grouped into one node per log, keyed `block:log`. */
export function groupTransfers(rows: readonly TransferRow[]): Map<string, TokenTransferObject> {
  const groups = new Map<string, TransferRow[]>();
  for (const r of rows) {
    const k = `${r.block_number}:${r.log_index}`;
    const g = groups.get(k);
    if (g) g.push(r);
    else groups.set(k, [r]);
  }
  return new Map([...groups].map(([k, g]) => [k, tokenTransferView(g)]));
}

export function blockView(r: GraphqlBlockRow) {
  return {
    // The index keeps the canonical chain only.
    consensus: true,
    difficulty: r.difficulty,
    gasLimit: r.gas_limit,
    gasUsed: r.gas_used,
    hash: hex(r.hash),
    minerHash: hex(r.miner),
    nonce: hexOrNull(r.nonce),
    number: r.number,
    parentHash: hex(r.parent_hash),
    size: r.size,
    timestamp: r.timestamp,
    totalDifficulty: r.total_difficulty,
    baseFeePerGas: r.base_fee_per_gas,
    isEmpty: r.transaction_count === 0,
  };
}

export function tokenView(r: TokenRow) {
  return {
    name: r.name,
    symbol: r.symbol,
    totalSupply: r.total_supply,
    decimals: r.decimals,
    type: r.type,
    holderCount: Number(r.holders_count),
    // No market data source.
    circulatingMarketCap: null,
    iconUrl: null,
    volume24h: null,
    contractAddressHash: hex(r.address),
  };
}

/** A verified contract as Blockscout's SmartContract object, from the same view as /api/v2/smart-contracts/{h}. */
export function smartContractObject(record: VerifiedContractRecord) {
  const v = smartContractView(record);
  return {
    name: v.name,
    compilerVersion: v.compiler_version,
    optimization: v.optimization_enabled,
    contractSourceCode: v.source_code,
    abi: v.abi,
    addressHash: record.address.toLowerCase(),
    constructorArguments: v.constructor_args,
    evmVersion: v.evm_version,
    externalLibraries: v.external_libraries,
    verifiedViaSourcify: v.is_verified_via_sourcify,
    partiallyVerified: v.is_partially_verified,
    filePath: v.file_path,
    isChangedBytecode: v.is_changed_bytecode,
    compilerSettings: v.compiler_settings,
    verifiedViaEthBytecodeDb: v.is_verified_via_eth_bytecode_db,
    language: v.language.toUpperCase(),
    optimizationRuns: v.optimization_runs,
  };
}
