import type { Abi, Address } from "viem";
import { fromBytea, fromByteaOrNull } from "../../db/bytes.js";
import { decodeFunctionInput, methodName } from "../decoding/function-input.js";
import { checksummed } from "../objects/checksum.js";
import type { CsvHolderRow, CsvInternalRow, CsvLogRow, CsvTransactionRow, CsvTransferRow } from "./query.js";
import { csvTimestamp, unitsXsd } from "./values.js";

type Field = string | number | null;

// The headers and rows of Blockscout's exporters (Explorer.Chain.CsvExport.*): same columns, same order. Prices
// are empty: Lookout has no price source (Blockscout's are empty without one too).

const checksum = (a: Uint8Array | null) => (a ? checksummed(fromBytea(a)) : null);
const fee = (price: string | null, gasUsed: string | null) =>
  price === null || gasUsed === null ? null : (BigInt(price) * BigInt(gasUsed)).toString();
/** A transaction's `status` as Elixir prints its atom. */
const status = (s: number | null) => (s === null ? null : s === 1 ? "ok" : "error");
/** The export's own direction column: OUT when the address sent, IN when it received. */
const direction = (address: Address, from: Uint8Array, to: Uint8Array | null) =>
  fromBytea(from) === address ? "OUT" : to && fromBytea(to) === address ? "IN" : "";

export const TRANSACTIONS_HEADER = [
  "TxHash",
  "BlockNumber",
  "UnixTimestamp",
  "FromAddress",
  "ToAddress",
  "ContractAddress",
  "Type",
  "Value",
  "Fee",
  "Status",
  "ErrCode",
  "CurrentPrice",
  "TxDateOpeningPrice",
  "TxDateClosingPrice",
  "MethodName",
];

export function transactionCsvRow(r: CsvTransactionRow, address: Address, abi: Abi | undefined): Field[] {
  const input = fromBytea(r.input);
  const decoded = abi ? decodeFunctionInput(abi, input) : null;
  return [
    fromBytea(r.hash),
    r.block_number,
    csvTimestamp(r.timestamp),
    checksum(r.from_address),
    checksum(r.to_address),
    checksum(r.contract_address),
    direction(address, r.from_address, r.to_address),
    r.value,
    fee(r.price, r.gas_used),
    status(r.status),
    r.error,
    null,
    null,
    null,
    methodName(decoded, input, r.to_is_contract),
  ];
}

export const TOKEN_TRANSFERS_HEADER = [
  "TxHash",
  "BlockNumber",
  "UnixTimestamp",
  "FromAddress",
  "ToAddress",
  "TokenContractAddress",
  "Type",
  "TokenDecimals",
  "TokenSymbol",
  "TokensTransferred",
  "TransactionFee",
  "Status",
  "ErrCode",
];

export function tokenTransferCsvRow(r: CsvTransferRow, address: Address): Field[] {
  return [
    fromBytea(r.transaction_hash),
    r.block_number,
    csvTimestamp(r.timestamp),
    checksum(r.from_address),
    checksum(r.to_address),
    checksum(r.token_address),
    direction(address, r.from_address, r.to_address),
    r.decimals,
    r.symbol,
    // Blockscout keeps no amount for an ERC-721 transfer (its id is the transfer).
    r.token_type === "ERC-721" && r.token_id !== null ? null : r.amount,
    fee(r.price, r.tx_gas_used),
    status(r.status),
    r.error,
  ];
}

export const INTERNAL_TRANSACTIONS_HEADER = [
  "TxHash",
  "Index",
  "BlockNumber",
  "TxIndex",
  "UnixTimestamp",
  "FromAddress",
  "ToAddress",
  "ContractAddress",
  "Type",
  "CallType",
  "Gas",
  "GasUsed",
  "Value",
  "Input",
  "Output",
  "ErrCode",
  "Fee",
];

export function internalTransactionCsvRow(r: CsvInternalRow): Field[] {
  return [
    fromBytea(r.transaction_hash),
    r.index,
    r.block_number,
    r.transaction_index,
    csvTimestamp(r.timestamp),
    checksum(r.from_address),
    checksum(r.to_address),
    checksum(r.created_contract_address),
    r.type,
    r.type === "call" ? r.call_type : null,
    r.gas ?? "0",
    r.gas_used,
    r.value,
    fromByteaOrNull(r.input),
    fromByteaOrNull(r.output),
    r.error,
    fee(r.price, r.gas_used),
  ];
}

export const LOGS_HEADER = [
  "TxHash",
  "Index",
  "BlockNumber",
  "BlockHash",
  "ContractAddress",
  "Data",
  "FirstTopic",
  "SecondTopic",
  "ThirdTopic",
  "FourthTopic",
];

export function logCsvRow(r: CsvLogRow): Field[] {
  return [
    fromBytea(r.transaction_hash),
    r.log_index,
    r.block_number,
    fromBytea(r.block_hash),
    checksum(r.address),
    fromBytea(r.data),
    fromByteaOrNull(r.topic0),
    fromByteaOrNull(r.topic1),
    fromByteaOrNull(r.topic2),
    fromByteaOrNull(r.topic3),
  ];
}

export const HOLDERS_HEADER = ["HolderAddress", "Balance"];

export function holderCsvRow(r: CsvHolderRow, decimals: string | null): Field[] {
  return [checksum(r.holder), unitsXsd(r.value, decimals === null ? 0 : Number(decimals))];
}
