import type { Hex } from "viem";
import type { Queryable } from "../../db/db.js";
import { transactionByHash } from "./query.js";

/** Whether a transaction was indexed: the lists of one transaction answer 404 otherwise. */
export async function knownTransaction(db: Queryable, hash: Hex): Promise<boolean> {
  return (await transactionByHash(db, hash)) !== null;
}
