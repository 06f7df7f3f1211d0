import { Type } from "@sinclair/typebox";
import { AddressObjectSchema, NullableString, nullable } from "../objects/address-schema.js";
import { TokenObjectSchema } from "../objects/token-schema.js";

/** One item of /addresses/{h}/nft (view.ts NftItem), every field. */
export const NftItemSchema = Type.Object({
  id: Type.String(),
  // Free-form token metadata as stored: passed through untouched, whatever its shape.
  metadata: Type.Unknown({ description: "metadata object or null" }),
  owner: nullable(AddressObjectSchema),
  token: nullable(TokenObjectSchema),
  external_app_url: NullableString,
  animation_url: NullableString,
  image_url: NullableString,
  media_url: NullableString,
  media_type: NullableString,
  thumbnails: Type.Unknown({ description: "thumbnails object or null" }),
  is_unique: Type.Boolean(),
  holder_address_hash: NullableString,
  token_type: Type.String(),
  value: Type.String(),
});

export const NftPageSchema = Type.Object({
  items: Type.Array(NftItemSchema),
  next_page_params: nullable(
    Type.Object({
      items_count: Type.Integer(),
      token_contract_address_hash: Type.String(),
      token_id: Type.String(),
      token_type: Type.String(),
    }),
  ),
});

/** One item of /addresses/{h}/nft/collections (view.ts NftCollectionItem). */
export const NftCollectionSchema = Type.Object({
  token: nullable(TokenObjectSchema),
  amount: Type.String(),
  token_instances: Type.Array(NftItemSchema),
});

export const NftCollectionsPageSchema = Type.Object({
  items: Type.Array(NftCollectionSchema),
  next_page_params: nullable(
    Type.Object({
      items_count: Type.Integer(),
      token_contract_address_hash: Type.String(),
      token_type: Type.String(),
    }),
  ),
});
