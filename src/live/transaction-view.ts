import type { Address, Hex } from "viem";
import { fromBytea, fromByteaOrNull } from "../db/bytes.js";
import type { AddressObject } from "../explorer/address/view.js";

/** The columns of a validated transaction the socket's Transaction needs (with its block's time and base fee). */
export type LiveTransactionRow = {
  hash: Uint8Array;
  block_number: number;
  index: number;
  from_address: Uint8Array;
  to_address: Uint8Array | null;
  contract_address: Uint8Array | null;
  value: string;
  nonce: number;
  gas: string;
  gas_price: string | null;
  max_fee_per_gas: string | null;
  max_priority_fee_per_gas: string | null;
  type: number;
  input: Uint8Array;
  status: number | null;
  gas_used: string;
  effective_gas_price: string | null;
  timestamp: Date;
  base_fee_per_gas: string | null;
};

export const LIVE_TRANSACTION_COLUMNS = `t.hash, t.block_number, t.index, t.from_address, t.to_address,
  t.contract_address, t.value, t.nonce, t.gas, t.gas_price, t.max_fee_per_gas, t.max_priority_fee_per_gas, t.type,
  t.input, t.status, t.gas_used, t.effective_gas_price, b.timestamp, b.base_fee_per_gas`;

/** Every address a row shows (for one batched address-object lookup). */
export function transactionAddresses(r: LiveTransactionRow): Address[] {
  return [r.from_address, r.to_address, r.contract_address]
    .filter((a): a is Uint8Array => a !== null)
    .map((a) => fromBytea(a) as Address);
}

/**
 * Blockscout's `Transaction` (frontend type) for an address's socket `transaction` event: a validated
 * transaction with what our index holds; no decoded input or token transfers (the page refetches those). Pure.
 */
export function liveTransactionView(
  r: LiveTransactionRow,
  address: (hash: Address) => AddressObject,
  tip: number,
) {
  const price = BigInt(r.effective_gas_price ?? r.gas_price ?? "0");
  const gasUsed = BigInt(r.gas_used);
  const baseFee = r.base_fee_per_gas === null ? null : BigInt(r.base_fee_per_gas);
  const input = fromBytea(r.input) as Hex;
  const failed = r.status === 0;
  const created = fromByteaOrNull(r.contract_address) as Address | null;
  const to = fromByteaOrNull(r.to_address) as Address | null;
  return {
    hash: fromBytea(r.hash),
    result: failed ? "error" : "success",
    status: r.status === null ? null : failed ? "error" : "ok",
    confirmations: Math.max(0, tip - r.block_number + 1),
    block_number: r.block_number,
    timestamp: r.timestamp.toISOString().replace(/\.\d{3}Z$/, ".000000Z"),
    confirmation_duration: null,
    from: address(fromBytea(r.from_address) as Address),
    to: to ? address(to) : null,
    created_contract: created && !to ? address(created) : null,
    value: r.value,
    fee: { type: "actual", value: (gasUsed * price).toString() },
    gas_price: (r.effective_gas_price ?? r.gas_price) as string | null,
    type: r.type,
    gas_used: r.gas_used,
    gas_limit: r.gas,
    max_fee_per_gas: r.max_fee_per_gas,
    max_priority_fee_per_gas: r.max_priority_fee_per_gas,
    priority_fee: baseFee === null ? null : (gasUsed * (price - baseFee)).toString(),
    base_fee_per_gas: r.base_fee_per_gas,
    transaction_burnt_fee: baseFee === null ? null : (gasUsed * baseFee).toString(),
    nonce: r.nonce,
    position: r.index,
    revert_reason: null,
    raw_input: input,
    decoded_input: null,
    token_transfers: null,
    token_transfers_overflow: false,
    exchange_rate: null,
    method: input.length >= 10 ? input.slice(0, 10) : null,
    transaction_types: [
      ...(created && !to ? ["contract_creation"] : []),
      ...(to && input.length > 2 ? ["contract_call"] : []),
      ...(BigInt(r.value) > 0n ? ["coin_transfer"] : []),
    ],
    transaction_tag: null,
    actions: [],
    has_error_in_internal_transactions: null,
  };
}
