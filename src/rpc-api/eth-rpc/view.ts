import { fromByteaOrNull } from "../../db/bytes.js";
import { hex, quantity } from "../hex.js";
import type { LogRow } from "../logs/query.js";

/** A log as eth_getLogs returns it (topics without the absent ones). */
export function rpcLog(l: LogRow) {
  return {
    address: hex(l.address),
    blockHash: hex(l.block_hash),
    blockNumber: quantity(l.block_number),
    data: hex(l.data),
    logIndex: quantity(l.log_index),
    removed: false,
    topics: [l.topic0, l.topic1, l.topic2, l.topic3].map((t) => fromByteaOrNull(t)).filter((t) => t !== null),
    transactionHash: hex(l.transaction_hash),
    transactionIndex: quantity(l.transaction_index),
  };
}
