import { hex, hexOr, unix } from "../hex.js";
import type { HoldingRow, InternalRow, TransferRow, TxRow } from "./query.js";

/** The first four bytes of a call's input (Transaction.method_id): "0x" for creations and short inputs. */
function methodId(input: Uint8Array, isCreation: boolean): string {
  return !isCreation && input.length >= 4 ? `0x${Buffer.from(input.subarray(0, 4)).toString("hex")}` : "0x";
}

/** A `txlist` item, confirmations counted as Blockscout does (head - block). */
export function txItem(t: TxRow, head: number) {
  const ok = t.status === 1;
  return {
    blockNumber: String(t.block_number),
    timeStamp: unix(t.timestamp),
    hash: hex(t.hash),
    nonce: String(t.nonce),
    blockHash: hex(t.block_hash),
    transactionIndex: String(t.index),
    from: hex(t.from_address),
    to: hexOr(t.to_address),
    value: t.value,
    gas: t.gas,
    gasPrice: t.gas_price ?? "",
    isError: ok ? "0" : "1",
    txreceipt_status: ok ? "1" : "0",
    input: hex(t.input),
    contractAddress: hexOr(t.contract_address),
    cumulativeGasUsed: t.cumulative_gas_used,
    gasUsed: t.gas_used,
    confirmations: String(head - Number(t.block_number)),
    methodId: methodId(t.input, t.to_address === null),
  };
}

/** A `txlistinternal` item. */
export function internalItem(i: InternalRow) {
  return {
    blockNumber: String(i.block_number),
    timeStamp: unix(i.timestamp),
    from: hex(i.from_address),
    to: hexOr(i.to_address),
    value: i.value,
    contractAddress: hexOr(i.created_contract_address),
    transactionHash: hex(i.transaction_hash),
    index: String(i.index),
    input: hexOr(i.input),
    type: i.type,
    callType: i.call_type ?? "",
    gas: i.gas ?? "0",
    gasUsed: i.gas_used ?? "",
    isError: i.error ? "1" : "0",
    errCode: i.error ?? "",
  };
}

/** A token transfer item; the standard adds `value`, `tokenID` or both, as Blockscout's view. */
export function transferItem(x: TransferRow, head: number) {
  const common = {
    blockNumber: String(x.block_number),
    timeStamp: unix(x.timestamp),
    hash: hex(x.transaction_hash),
    nonce: String(x.nonce),
    blockHash: hex(x.block_hash),
    from: hex(x.from_address),
    contractAddress: hex(x.token_address),
    to: hex(x.to_address),
    tokenName: x.name,
    tokenSymbol: x.symbol,
    tokenDecimal: x.decimals ?? "",
    transactionIndex: String(x.transaction_index),
    gas: x.gas,
    gasPrice: x.gas_price ?? "",
    gasUsed: x.gas_used,
    cumulativeGasUsed: x.cumulative_gas_used,
    input: hex(x.input),
    confirmations: String(head - Number(x.block_number)),
    // Blockscout decodes the input with a verified ABI when it has one; the selector alone is not a decoding.
    methodId: "",
    functionName: "",
  };
  if (x.kind === "ERC-721") return { ...common, tokenID: x.token_id };
  if (x.kind === "ERC-1155") return { ...common, tokenID: x.token_id, tokenValue: x.amount };
  // ERC-404: the fungible side (ERC20Transfer) carries the value, the NFT side (ERC721Transfer) the id; Blockscout
  // writes the other member as "" (the first of an empty list).
  if (x.kind === "ERC-404")
    return x.token_id === null
      ? { ...common, tokenID: "", value: x.amount }
      : { ...common, tokenID: x.token_id, value: "" };
  // ERC-7984 (confidential): the amount is encrypted, Blockscout writes null.
  if (x.kind === "ERC-7984") return { ...common, value: null };
  return { ...common, value: x.amount };
}

/** A `tokenlist` item (`id` only for ERC-1155 holdings). */
export function holdingItem(h: HoldingRow) {
  const item = {
    balance: h.value,
    contractAddress: hex(h.token_address),
    name: h.name,
    decimals: h.decimals ?? "",
    symbol: h.symbol,
    type: h.type,
  };
  return h.token_id === null ? item : { ...item, id: h.token_id };
}
