import type { Hex } from "viem";
import type { Queryable } from "../../db/db.js";
import { transactionKnown } from "./query.js";

/**
 * A transaction's FHE (fhEVM) operations with their HCU totals. Blockscout parses them from the logs of the fhEVM
 * executor; Lookout indexes no fhEVM chain, so a known transaction has none (Blockscout's answer on such a chain).
 * Null for an unknown transaction (404).
 */
export async function fheOperations(db: Queryable, hash: Hex) {
  if (!(await transactionKnown(db, hash))) return null;
  return { items: [], total_hcu: 0, max_depth_hcu: 0, operation_count: 0 };
}
