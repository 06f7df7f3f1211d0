import type { Address, Hex } from "viem";
import { fromBytea, fromByteaOrNull } from "../../db/bytes.js";
import type { AddressObject } from "../objects/address-view.js";
import { usecTimestamp } from "../timestamp.js";
import type { InternalTxRow } from "./query.js";

/** Blockscout's InternalTransactionView "internal_transaction.json". */
export type InternalTxItem = {
  error: string | null;
  success: boolean;
  type: string;
  transaction_hash: Hex;
  transaction_index: number;
  from: AddressObject;
  to: AddressObject | null;
  created_contract: AddressObject | null;
  value: string;
  block_number: number;
  timestamp: string;
  index: number;
  gas_limit: string;
};

export function internalTxView(
  r: InternalTxRow,
  addresses: ReadonlyMap<Address, AddressObject>,
): InternalTxItem {
  const obj = (b: Uint8Array | null) => {
    const a = fromByteaOrNull(b);
    return a ? addresses.get(a as Address)! : null;
  };
  return {
    error: r.error,
    success: r.error === null,
    // InternalTransaction.call_type(it) || it.type: "delegatecall", "staticcall", … for calls.
    type: r.call_type ?? r.type,
    transaction_hash: fromBytea(r.transaction_hash),
    transaction_index: r.transaction_index,
    from: obj(r.from_address)!,
    to: obj(r.to_address),
    created_contract: obj(r.created_contract_address),
    value: r.value,
    block_number: r.block_number,
    timestamp: usecTimestamp(r.timestamp),
    index: r.index,
    gas_limit: r.gas ?? "0",
  };
}

export function internalTxAddresses(rows: readonly InternalTxRow[]): Address[] {
  return rows.flatMap((r) =>
    [r.from_address, r.to_address, r.created_contract_address]
      .filter((b): b is Uint8Array => b !== null)
      .map((b) => fromBytea(b) as Address),
  );
}

/** Blockscout's paging_params of an internal transaction. */
export function internalTxCursor(r: InternalTxRow) {
  return { block_number: r.block_number, index: r.index, transaction_index: r.transaction_index };
}

/** Blockscout's internal_transaction_to_block_paging_options: the block is the path's. */
export function blockInternalTxCursor(r: InternalTxRow) {
  return { transaction_index: r.transaction_index, index: r.index };
}
