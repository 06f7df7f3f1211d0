import type { Address } from "viem";
import { fromBytea } from "../../db/bytes.js";
import type { AddressObject } from "../objects/address-view.js";
import { usecTimestamp } from "../timestamp.js";
import type { WithdrawalRow } from "./query.js";

/** WithdrawalView for a block's list (the block is known: receiver instead of block fields). */
export function blockWithdrawalView(r: WithdrawalRow, addresses: ReadonlyMap<Address, AddressObject>) {
  return {
    index: Number(r.index),
    validator_index: Number(r.validator_index),
    receiver: addresses.get(fromBytea(r.address) as Address)!,
    amount: r.amount,
  };
}

/** WithdrawalView for an address's list (the receiver is known: block fields instead). */
export function addressWithdrawalView(r: WithdrawalRow) {
  return {
    index: Number(r.index),
    validator_index: Number(r.validator_index),
    block_number: r.block_number,
    amount: r.amount,
    timestamp: usecTimestamp(r.timestamp),
  };
}

export const withdrawalCursor = (r: WithdrawalRow) => ({ index: Number(r.index) });

/** WithdrawalView for the chain's list: block fields and the receiver. */
export function withdrawalView(r: WithdrawalRow, addresses: ReadonlyMap<Address, AddressObject>) {
  return {
    index: Number(r.index),
    validator_index: Number(r.validator_index),
    block_number: r.block_number,
    receiver: addresses.get(fromBytea(r.address) as Address)!,
    amount: r.amount,
    timestamp: usecTimestamp(r.timestamp),
  };
}
