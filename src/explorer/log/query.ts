import type { Address, Hex } from "viem";
import type { LogsRow } from "../../chain-store/rows.js";
import { toBytea } from "../../db/bytes.js";
import type { Queryable } from "../../db/db.js";

export type LogRow = LogsRow & {
  block_hash: Uint8Array;
  timestamp: Date;
  /** The recipient of the log's transaction (Blockscout's `smart_contract` of address logs). */
  transaction_to: Uint8Array | null;
};

const SELECT = `select l.block_number, l.log_index, l.transaction_hash, l.transaction_index, l.address, l.topic0,
  l.topic1, l.topic2, l.topic3, l.data, b.hash as block_hash, b.timestamp, x.to_address as transaction_to
  from logs l join blocks b on b.number = l.block_number
  join transactions x on x.block_number = l.block_number and x.index = l.transaction_index`;

/** A transaction's logs in order after `afterIndex`: its block's range of the logs primary key. */
export function transactionLogsPage(
  db: Queryable,
  hash: Hex,
  afterIndex: number | null,
  limit: number,
): Promise<LogRow[]> {
  return db.query<LogRow>(
    `${SELECT} where l.block_number = (select block_number from transactions where hash = $1)
       and l.transaction_hash = $1 and l.log_index > $2
     order by l.log_index limit $3`,
    [toBytea(hash), afterIndex ?? -1, limit],
  );
}

export type LogCursor = { blockNumber: number; index: number };

/** An address's logs, newest first, before the cursor (logs_address_idx; `topic` matches any topic). */
export function addressLogsPage(
  db: Queryable,
  address: Address,
  topic: Hex | null,
  before: LogCursor | null,
  limit: number,
): Promise<LogRow[]> {
  return db.query<LogRow>(
    `${SELECT} where l.address = $1 and l.block_number <= $2 and (l.block_number, l.log_index) < ($2, $3)
       and ($4::bytea is null or $4 in (l.topic0, l.topic1, l.topic2, l.topic3))
     order by l.block_number desc, l.log_index desc limit $5`,
    [
      toBytea(address),
      before?.blockNumber ?? Number.MAX_SAFE_INTEGER,
      before?.index ?? 2 ** 31 - 1,
      topic ? toBytea(topic) : null,
      limit,
    ],
  );
}
