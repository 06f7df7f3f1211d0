import { fromByteaOrNull } from "../../db/bytes.js";
import { hex, quantity } from "../hex.js";
import type { LogRow } from "./query.js";

export const topics = (l: LogRow) => [l.topic0, l.topic1, l.topic2, l.topic3].map((t) => fromByteaOrNull(t));

/** A getLogs item: numbers as 0x-hex, as Blockscout's LogsView (and Etherscan). */
export function logItem(l: LogRow) {
  return {
    address: hex(l.address),
    topics: topics(l),
    data: hex(l.data),
    blockNumber: quantity(l.block_number),
    timeStamp: quantity(Math.floor(l.timestamp.getTime() / 1000)),
    gasPrice: quantity(l.gas_price ?? 0),
    gasUsed: quantity(l.gas_used),
    logIndex: quantity(l.log_index),
    transactionHash: hex(l.transaction_hash),
    transactionIndex: quantity(l.transaction_index),
  };
}
