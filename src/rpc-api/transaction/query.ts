import type { Hex } from "viem";
import type { LogsRow } from "../../chain-store/rows.js";
import { toBytea } from "../../db/bytes.js";
import type { Queryable } from "../../db/db.js";

export type TxInfoRow = {
  hash: Uint8Array;
  block_number: string;
  timestamp: Date;
  from_address: Uint8Array;
  to_address: Uint8Array | null;
  value: string;
  input: Uint8Array;
  gas: string;
  gas_used: string;
  gas_price: string | null;
  status: number | null;
  revert_reason: string | null;
};

export async function transactionByHash(db: Queryable, hash: Hex): Promise<TxInfoRow | null> {
  const [r] = await db.query<TxInfoRow>(
    `select t.hash, t.block_number, b.timestamp, t.from_address, t.to_address, t.value::text as value, t.input,
       t.gas::text as gas, t.gas_used::text as gas_used, coalesce(t.effective_gas_price, t.gas_price)::text as gas_price,
       t.status, t.revert_reason
     from transactions t join blocks b on b.number = t.block_number where t.hash = $1`,
    [toBytea(hash)],
  );
  return r ?? null;
}

export type TxLogRow = Pick<
  LogsRow,
  "block_number" | "log_index" | "address" | "topic0" | "topic1" | "topic2" | "topic3" | "data"
>;

/** A transaction's logs after the keyset log index, in order (logs_transaction_idx, then the block's rows). */
export function transactionLogs(
  db: Queryable,
  hash: Hex,
  afterIndex: number | null,
  limit: number,
): Promise<TxLogRow[]> {
  return db.query<TxLogRow>(
    `select block_number, log_index, address, topic0, topic1, topic2, topic3, data from logs
     where transaction_hash = $1 and log_index > $2 order by log_index limit $3`,
    [toBytea(hash), afterIndex ?? -1, limit],
  );
}

export async function transactionStatus(db: Queryable, hash: Hex): Promise<{ status: number | null } | null> {
  const [r] = await db.query<{ status: number | null }>("select status from transactions where hash = $1", [
    toBytea(hash),
  ]);
  return r ?? null;
}

/**
 * A transaction's receipt status with its top call frame's error (the node's own text, e.g. "Reverted" or
 * "out of gas"); `traced` false while the block's call frames are not indexed yet.
 */
export async function transactionError(
  db: Queryable,
  hash: Hex,
): Promise<{ status: number | null; error: string | null; traced: boolean } | null> {
  const [r] = await db.query<{ status: number | null; error: string | null; traced: boolean }>(
    `select t.status, f.error, b.internal_transactions_indexed as traced
     from transactions t join blocks b on b.number = t.block_number
     left join internal_transactions f on f.block_number = t.block_number and f.transaction_index = t.index
       and f.index = 0
     where t.hash = $1`,
    [toBytea(hash)],
  );
  return r ?? null;
}
