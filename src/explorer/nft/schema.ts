import { Type } from "@sinclair/typebox";
import { AddressObjectSchema, NullableString, nullable } from "../address/schema.js";

/** The token object of tokens/view.ts as NFT items carry it: every field (a response schema drops unlisted ones). */
export const TokenObjectSchema = Type.Object({
  address_hash: Type.String(),
  circulating_market_cap: NullableString,
  circulating_supply: NullableString,
  decimals: NullableString,
  exchange_rate: NullableString,
  holders_count: NullableString,
  icon_url: NullableString,
  name: NullableString,
  reputation: NullableString,
  symbol: NullableString,
  total_supply: NullableString,
  type: NullableString,
  volume_24h: NullableString,
});

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
