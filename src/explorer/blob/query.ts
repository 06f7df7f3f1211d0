import type { Hex } from "viem";
import { toBytea } from "../../db/bytes.js";
import type { Queryable } from "../../db/db.js";

/** One blob of a transaction: its versioned hash, and its contents when the blob fetcher kept them. */
export type BlobRow = {
  hash: Uint8Array;
  blob_data: Uint8Array | null;
  kzg_commitment: Uint8Array | null;
  kzg_proof: Uint8Array | null;
};

/**
 * The blobs of the transaction at (block, index) in the order it names them: a primary-key prefix range of
 * transaction_blobs, each joined to its contents by primary key.
 */
export async function transactionBlobs(
  db: Queryable,
  blockNumber: number,
  transactionIndex: number,
): Promise<BlobRow[]> {
  return db.query<BlobRow>(
    `select t.versioned_hash as hash, b.blob_data, b.kzg_commitment, b.kzg_proof
     from transaction_blobs t left join blobs b on b.hash = t.versioned_hash
     where t.block_number = $1 and t.transaction_index = $2 order by t.index`,
    [blockNumber, transactionIndex],
  );
}

/** A blob's contents (null when not fetched) and up to 10 transactions naming it, newest first (index scans). */
export async function blobByHash(
  db: Queryable,
  hash: Hex,
): Promise<{ blob: BlobRow | null; transactions: Uint8Array[] }> {
  const h = toBytea(hash);
  const [blob, txs] = await Promise.all([
    db.query<BlobRow>("select hash, blob_data, kzg_commitment, kzg_proof from blobs where hash = $1", [h]),
    db.query<{ transaction_hash: Uint8Array }>(
      `select transaction_hash from transaction_blobs where versioned_hash = $1
       order by block_number desc, transaction_index desc limit 10`,
      [h],
    ),
  ]);
  return { blob: blob[0] ?? null, transactions: txs.map((t) => t.transaction_hash) };
}
