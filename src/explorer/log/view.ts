import type { Abi, Address, Hex } from "viem";
import { fromBytea, fromByteaOrNull } from "../../db/bytes.js";
import { type DecodedLog, decodeEventLogWithAbi } from "../decoding/event-log.js";
import type { AddressObject } from "../objects/address-view.js";
import { usecTimestamp } from "../timestamp.js";
import type { LogRow } from "./query.js";

/** Blockscout's TransactionView prepare_log. */
export type LogItem = {
  transaction_hash: Hex;
  address: AddressObject;
  topics: Array<Hex | null>;
  data: Hex;
  index: number;
  decoded: DecodedLog | null;
  smart_contract: AddressObject | null;
  block_number: number;
  block_hash: Hex;
  block_timestamp: string;
};

export type LogContext = {
  addresses: ReadonlyMap<Address, AddressObject>;
  /** Verified ABIs by lower-case emitter address. */
  abis: ReadonlyMap<Address, Abi>;
  /** Address lists show the transaction's recipient as `smart_contract`; transaction lists do not. */
  withSmartContract: boolean;
};

export function logTopics(r: LogRow): Array<Hex | null> {
  return [r.topic0, r.topic1, r.topic2, r.topic3].map(fromByteaOrNull);
}

export function logView(r: LogRow, ctx: LogContext): LogItem {
  const emitter = fromBytea(r.address) as Address;
  const topics = logTopics(r);
  const data = fromBytea(r.data);
  const abi = ctx.abis.get(emitter);
  const to = fromByteaOrNull(r.transaction_to) as Address | null;
  return {
    transaction_hash: fromBytea(r.transaction_hash),
    address: ctx.addresses.get(emitter)!,
    topics,
    data,
    index: r.log_index,
    decoded: abi ? decodeEventLogWithAbi(abi, topics, data) : null,
    smart_contract: ctx.withSmartContract && to ? ctx.addresses.get(to)! : null,
    block_number: r.block_number,
    block_hash: fromBytea(r.block_hash),
    block_timestamp: usecTimestamp(r.timestamp),
  };
}

export function logAddresses(rows: readonly LogRow[], withSmartContract: boolean): Address[] {
  return rows.flatMap((r) => {
    const out = [fromBytea(r.address) as Address];
    if (withSmartContract && r.transaction_to) out.push(fromBytea(r.transaction_to) as Address);
    return out;
  });
}
