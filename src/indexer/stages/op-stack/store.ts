import { toBytea, toByteaOrNull } from "../../../db/bytes.js";
import { command, type Queryable } from "../../../db/db.js";
import { bulkInsert } from "../core/bulk-insert.js";
import type { OpTransactionRow } from "./derive.js";

export const insertOpTransactions = bulkInsert<OpTransactionRow>("op_transactions", [
  { column: "transaction_hash", type: "bytea", get: (r) => toBytea(r.transactionHash) },
  { column: "block_number", type: "int8", get: (r) => r.blockNumber },
  { column: "is_deposit", type: "bool", get: (r) => r.isDeposit },
  { column: "source_hash", type: "bytea", get: (r) => toByteaOrNull(r.sourceHash) },
  { column: "mint", type: "numeric", get: (r) => r.mint },
  { column: "is_system_tx", type: "bool", get: (r) => r.isSystemTx },
  { column: "deposit_nonce", type: "numeric", get: (r) => r.depositNonce },
  { column: "deposit_receipt_version", type: "int4", get: (r) => r.depositReceiptVersion },
  { column: "l1_fee", type: "numeric", get: (r) => r.l1Fee },
  { column: "l1_gas_price", type: "numeric", get: (r) => r.l1GasPrice },
  { column: "l1_gas_used", type: "numeric", get: (r) => r.l1GasUsed },
  { column: "l1_fee_scalar", type: "numeric", get: (r) => r.l1FeeScalar },
  { column: "l1_base_fee_scalar", type: "numeric", get: (r) => r.l1BaseFeeScalar },
  { column: "l1_blob_base_fee", type: "numeric", get: (r) => r.l1BlobBaseFee },
  { column: "l1_blob_base_fee_scalar", type: "numeric", get: (r) => r.l1BlobBaseFeeScalar },
  { column: "operator_fee_scalar", type: "numeric", get: (r) => r.operatorFeeScalar },
  { column: "operator_fee_constant", type: "numeric", get: (r) => r.operatorFeeConstant },
  { column: "da_footprint_gas_scalar", type: "numeric", get: (r) => r.daFootprintGasScalar },
]);

/** Deletes the rows of every block above `ancestor` (a reorganisation, or -1 to wipe). */
export async function revertOpTransactions(tx: Queryable, ancestor: number): Promise<void> {
  await command(tx, "delete from op_transactions where block_number > $1", [ancestor]);
}
