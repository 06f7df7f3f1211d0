import type { Hex } from "viem";
import type { Queryable } from "../../db/db.js";
import { transactionByHash } from "../transaction/query.js";
import { blobByHash, transactionBlobs } from "./query.js";
import { blobView, txBlobView } from "./view.js";

/** `/transactions/{h}/blobs`: null for an unknown transaction (404); a transaction without blobs has none. */
export async function blobsOfTransaction(db: Queryable, hash: Hex) {
  const tx = await transactionByHash(db, hash);
  if (!tx) return null;
  const rows = tx.type === 3 ? await transactionBlobs(db, tx.block_number, tx.index) : [];
  return { items: rows.map(txBlobView), next_page_params: null };
}

/** `/blobs/{hash}`: null when no transaction names the blob and its contents are unknown (404), as Blockscout. */
export async function blobDetails(db: Queryable, hash: Hex) {
  const { blob, transactions } = await blobByHash(db, hash);
  if (!blob && !transactions.length) return null;
  return blobView(hash, blob, transactions);
}
