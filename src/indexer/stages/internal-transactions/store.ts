import { toBytea, toByteaOrNull } from "../../../db/bytes.js";
import type { Queryable } from "../../../db/db.js";
import type { InternalTransactionRow } from "./derive.js";

/** One multi-row insert for the batch (trace addresses travel as "0,1,2": unnest would flatten an int4[][]). */
export async function writeInternalTransactions(
  tx: Queryable,
  rows: readonly InternalTransactionRow[],
): Promise<void> {
  if (!rows.length) return;
  const col = <R>(f: (r: InternalTransactionRow) => R): R[] => rows.map(f);
  await tx.query(
    `insert into internal_transactions (block_number, transaction_index, index, transaction_hash, type, call_type,
       from_address, to_address, created_contract_address, value, gas, gas_used, input, output, error,
       trace_address, block_hash)
     select bn, ti, i, th, ty, ct, fa, ta, ca, v, g, gu, inp, outp, err,
       case when tr = '' then '{}'::int4[] else string_to_array(tr, ',')::int4[] end, bh
     from unnest($1::int8[], $2::int4[], $3::int4[], $4::bytea[], $5::text[], $6::text[], $7::bytea[], $8::bytea[],
       $9::bytea[], $10::numeric[], $11::numeric[], $12::numeric[], $13::bytea[], $14::bytea[], $15::text[],
       $16::text[], $17::bytea[])
       as x(bn, ti, i, th, ty, ct, fa, ta, ca, v, g, gu, inp, outp, err, tr, bh)`,
    [
      col((r) => r.blockNumber),
      col((r) => r.transactionIndex),
      col((r) => r.index),
      col((r) => toBytea(r.transactionHash)),
      col((r) => r.type),
      col((r) => r.callType),
      col((r) => toBytea(r.from)),
      col((r) => toByteaOrNull(r.to)),
      col((r) => toByteaOrNull(r.createdContract)),
      col((r) => r.value),
      col((r) => r.gas),
      col((r) => r.gasUsed),
      col((r) => toByteaOrNull(r.input)),
      col((r) => toByteaOrNull(r.output)),
      col((r) => r.error),
      col((r) => r.traceAddress.join(",")),
      col((r) => toBytea(r.blockHash)),
    ],
  );
}

export async function revertInternalTransactions(tx: Queryable, ancestor: number): Promise<void> {
  await tx.query("delete from internal_transactions where block_number > $1", [ancestor]);
}
