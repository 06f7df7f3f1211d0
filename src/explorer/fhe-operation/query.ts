import type { Hex } from "viem";
import { toBytea } from "../../db/bytes.js";
import type { Queryable } from "../../db/db.js";

/** Whether the transaction is indexed (the transactions primary key). */
export async function transactionKnown(db: Queryable, hash: Hex): Promise<boolean> {
  const rows = await db.query("select 1 from transactions where hash = $1", [toBytea(hash)]);
  return rows.length > 0;
}
