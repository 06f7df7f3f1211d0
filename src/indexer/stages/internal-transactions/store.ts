import type { Queryable } from "../../../db/db.js";
import { bulkInsert } from "../core/bulk-insert.js";
import type { InternalTransactionRow } from "./derive.js";

type Row = InternalTransactionRow;

/** One bulk insert for the batch (trace addresses travel as "0,1,2" to unnest: it would flatten an int4[][]). */
const insertInternalTransactions = bulkInsert<Row>("internal_transactions", [
  { column: "block_number", type: "int8", get: (r) => r.blockNumber },
  { column: "transaction_index", type: "int4", get: (r) => r.transactionIndex },
  { column: "index", type: "int4", get: (r) => r.index },
  { column: "transaction_hash", type: "bytea", get: (r) => r.transactionHash },
  { column: "type", type: "text", get: (r) => r.type },
  { column: "call_type", type: "text", get: (r) => r.callType },
  { column: "from_address", type: "bytea", get: (r) => r.from },
  { column: "to_address", type: "bytea", get: (r) => r.to },
  { column: "created_contract_address", type: "bytea", get: (r) => r.createdContract },
  { column: "value", type: "numeric", get: (r) => r.value },
  { column: "gas", type: "numeric", get: (r) => r.gas },
  { column: "gas_used", type: "numeric", get: (r) => r.gasUsed },
  { column: "input", type: "bytea", get: (r) => r.input },
  { column: "output", type: "bytea", get: (r) => r.output },
  { column: "error", type: "text", get: (r) => r.error },
  {
    column: "trace_address",
    type: "text",
    get: (r) => r.traceAddress,
    param: (path: number[]) => path.join(","),
    sql: (v) => `case when ${v} = '' then '{}'::int4[] else string_to_array(${v}, ',')::int4[] end`,
    stored: "int4[]",
  },
  { column: "block_hash", type: "bytea", get: (r) => r.blockHash },
]);

/** The rows' COPY tuples (built ahead of the batch transaction). */
export const encodeInternalTransactions = (rows: readonly Row[]): Uint8Array =>
  insertInternalTransactions.encode(rows);

/** Writes the rows; `text`: their COPY tuples built ahead (encodeInternalTransactions), else built now. */
export async function writeInternalTransactions(
  tx: Queryable,
  rows: readonly Row[],
  text?: Uint8Array,
): Promise<void> {
  if (text === undefined) await insertInternalTransactions(tx, rows);
  else await insertInternalTransactions.writeEncoded(tx, rows, text);
}

export async function revertInternalTransactions(tx: Queryable, ancestor: number): Promise<void> {
  await tx.query("delete from internal_transactions where block_number > $1", [ancestor]);
}
