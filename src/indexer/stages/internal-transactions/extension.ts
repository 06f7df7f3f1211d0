import type { FetchedBlock } from "../../../chain/types.js";
import type { IndexerExtension } from "../../pipeline/extension.js";
import { INTERNAL_TRANSACTIONS, type InternalTransactionsOfBlock } from "../stage-data.js";
import { deriveInternalTransactions, type InternalTransactionRow } from "./derive.js";
import {
  encodeInternalTransactions,
  revertInternalTransactions,
  writeInternalTransactions,
} from "./store.js";

/** A block's call frames as rows, with their COPY tuples: derived and encoded when the block arrives. */
type Derived = InternalTransactionsOfBlock;
const DERIVED = INTERNAL_TRANSACTIONS;

/** The batch's rows and their text in block order (derived now for a block fetched without this stage). */
function batchRows(
  batch: readonly FetchedBlock[],
): Derived | { rows: InternalTransactionRow[]; text?: never } {
  const own = batch.map((b) => DERIVED.of(b));
  if (own.some((o) => !o)) return { rows: deriveInternalTransactions(batch) };
  if (own.length === 1) return own[0]!;
  const rows: InternalTransactionRow[] = [];
  for (const o of own as Derived[]) for (const r of o.rows) rows.push(r);
  return { rows, text: Buffer.concat((own as Derived[]).map((o) => o.text)) };
}

/**
 * Every call frame of every transaction, from the call traces `fetchBlock` already brings (callTracer or
 * trace_block). Where the node gives no traces (or TRACES=off) nothing is stored and the block row says
 * `internal_transactions_indexed = false`. The rows are derived (and their COPY tuples built) in `afterFetch`,
 * outside the batch transaction, which every range waits for.
 */
export function internalTransactionsExtension(): IndexerExtension<Derived> {
  return {
    id: DERIVED.id,
    afterFetch: async (_rpc, fetched) => {
      const rows = deriveInternalTransactions([fetched]);
      return { rows, text: encodeInternalTransactions(rows) };
    },
    write: (tx, batch) => {
      const { rows, text } = batchRows(batch);
      return writeInternalTransactions(tx, rows, text);
    },
    revert: revertInternalTransactions,
  };
}
