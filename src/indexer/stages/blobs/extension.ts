import type { Hash } from "viem";
import type { FetchedBlock } from "../../../chain/types.js";
import { toBytea } from "../../../db/bytes.js";
import type { IndexerExtension } from "../../pipeline/extension.js";
import { bulkInsert } from "../core/bulk-insert.js";

type BlobRow = {
  blockNumber: number;
  transactionIndex: number;
  index: number;
  transactionHash: Hash;
  versionedHash: Hash;
};

/** The versioned hashes of a batch's blob transactions, in order. Pure. */
export function deriveBlobRows(batch: readonly FetchedBlock[]): BlobRow[] {
  const rows: BlobRow[] = [];
  for (const { block } of batch) {
    const blockNumber = Number(block.number);
    block.transactions.forEach((t, transactionIndex) => {
      (t.blobVersionedHashes ?? []).forEach((h, index) => {
        rows.push({
          blockNumber,
          transactionIndex,
          index,
          transactionHash: t.hash,
          versionedHash: h.toLowerCase() as Hash,
        });
      });
    });
  }
  return rows;
}

const insertBlobs = bulkInsert<BlobRow>("transaction_blobs", [
  { column: "block_number", type: "int8", get: (r) => r.blockNumber },
  { column: "transaction_index", type: "int4", get: (r) => r.transactionIndex },
  { column: "index", type: "int4", get: (r) => r.index },
  { column: "transaction_hash", type: "bytea", get: (r) => toBytea(r.transactionHash) },
  { column: "versioned_hash", type: "bytea", get: (r) => toBytea(r.versionedHash) },
]);

/**
 * EIP-4844: every versioned hash of every blob transaction (`transaction_blobs`), so `/blobs/{hash}` finds the
 * transactions of a blob by an index. The blob contents are no block data: the beacon fetcher keeps them apart.
 */
export function blobsExtension(): IndexerExtension {
  return {
    id: "blobs",
    async write(tx, batch) {
      await insertBlobs(tx, deriveBlobRows(batch));
    },
    async revert(tx, ancestor) {
      await tx.query("delete from transaction_blobs where block_number > $1", [ancestor]);
      // The blob fetcher asks again from the first replaced block (its blobs may be others).
      await tx.query("update blob_fetch_state set next_block = least(next_block, $1 + 1) where id = 1", [
        ancestor,
      ]);
    },
  };
}
