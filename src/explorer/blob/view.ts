import type { Hex } from "viem";
import { fromBytea, fromByteaOrNull } from "../../db/bytes.js";
import type { BlobRow } from "./query.js";

/** The frontend's TxBlob: contents null until the blob fetcher kept them (no beacon node: always null). */
export type TxBlob = { hash: Hex; blob_data: Hex | null; kzg_commitment: Hex | null; kzg_proof: Hex | null };

export function txBlobView(r: BlobRow): TxBlob {
  return {
    hash: fromBytea(r.hash),
    blob_data: fromByteaOrNull(r.blob_data),
    kzg_commitment: fromByteaOrNull(r.kzg_commitment),
    kzg_proof: fromByteaOrNull(r.kzg_proof),
  };
}

/**
 * The frontend's Blob: the contents (or nulls) and the transactions naming it. Lookout keeps the canonical chain
 * only, so every block is in consensus.
 */
export function blobView(hash: Hex, blob: BlobRow | null, transactions: readonly Uint8Array[]) {
  return {
    ...(blob ? txBlobView(blob) : { hash, blob_data: null, kzg_commitment: null, kzg_proof: null }),
    transaction_hashes: transactions.map((t) => ({ block_consensus: true, transaction_hash: fromBytea(t) })),
  };
}
