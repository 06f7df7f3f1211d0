import { Type } from "@sinclair/typebox";
import { OrNull } from "../objects/address-schema.js";

const Hash = Type.String({ pattern: "^0x[0-9a-f]{64}$" });

/** The frontend's TxBlob (blobs.ts): one blob of a transaction, its contents null until fetched. */
export const TxBlobSchema = Type.Object({
  hash: Hash,
  blob_data: OrNull(Type.String({ pattern: "^0x[0-9a-f]*$" })),
  kzg_commitment: OrNull(Type.String({ pattern: "^0x[0-9a-f]{96}$" })),
  kzg_proof: OrNull(Type.String({ pattern: "^0x[0-9a-f]{96}$" })),
});
/** TxBlobs: `/transactions/{h}/blobs`. */
export const TxBlobsSchema = Type.Object({ items: Type.Array(TxBlobSchema), next_page_params: Type.Null() });
/** Blob: `/blobs/{hash}`. */
export const BlobSchema = Type.Object({
  ...TxBlobSchema.properties,
  transaction_hashes: Type.Array(Type.Object({ block_consensus: Type.Boolean(), transaction_hash: Hash })),
});
