import type { LogsRow } from "../../chain-store/rows.js";
import { toBytea } from "../../db/bytes.js";
import type { Queryable } from "../../db/db.js";
import { type LogFilter, topicConditions } from "./filter.js";

export type LogRow = LogsRow & {
  block_hash: Uint8Array;
  timestamp: Date;
  gas_price: string | null;
  gas_used: string;
};

/** The most logs one request returns (Blockscout's getLogs and eth_getLogs limit). */
export const LOGS_LIMIT = 1000;

/**
 * Logs of the filter in chain order after the keyset (block, log index), at most `limit`: a range scan of
 * (address, block_number, log_index) with an address, of (topic0, block_number, log_index) with a topic0 alone
 * or and-ed, otherwise of the primary key over the block range.
 */
export function filteredLogs(
  db: Queryable,
  f: LogFilter,
  after: { blockNumber: number; logIndex: number } | null,
  limit = LOGS_LIMIT,
): Promise<LogRow[]> {
  const params: unknown[] = [f.fromBlock, f.toBlock];
  const conds = ["l.block_number >= $1", "l.block_number <= $2"];
  if (f.address) {
    params.push(toBytea(f.address));
    conds.push(`l.address = $${params.length}`);
  }
  conds.push(...topicConditions(f, params, toBytea));
  if (after) {
    params.push(after.blockNumber, after.logIndex);
    conds.push(`(l.block_number, l.log_index) > ($${params.length - 1}, $${params.length})`);
  }
  params.push(limit);
  return db.query<LogRow>(
    `select l.block_number, l.log_index, l.transaction_hash, l.transaction_index, l.address, l.topic0, l.topic1,
       l.topic2, l.topic3, l.data, b.hash as block_hash, b.timestamp,
       coalesce(t.effective_gas_price, t.gas_price)::text as gas_price, t.gas_used::text as gas_used
     from (select l.* from logs l where ${conds.join(" and ")} order by l.block_number, l.log_index limit $${params.length}) l
       join blocks b on b.number = l.block_number
       join transactions t on t.hash = l.transaction_hash
     order by l.block_number, l.log_index`,
    params,
  );
}
