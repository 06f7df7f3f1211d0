import { Type } from "@sinclair/typebox";
import { NullableString } from "./address-schema.js";

// Value.Check cannot read the type-list form of NullableString (a serialisation schema): a plain union here.
const OrNullString = Type.Union([Type.String(), Type.Null()]);

/** The token object of view.ts as items carry it: every field (a response schema drops unlisted ones). */
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

const TOKEN_TYPE = Type.Union([
  Type.Literal("ERC-20"),
  Type.Literal("ERC-721"),
  Type.Literal("ERC-1155"),
  Type.Literal("ERC-404"),
]);

/** The frontend's TokenInfo (token.ts): required members and their types. */
export const TokenInfoSchema = Type.Object({
  address_hash: Type.String({ pattern: "^0x[0-9a-fA-F]{40}$" }),
  type: TOKEN_TYPE,
  symbol: OrNullString,
  name: OrNullString,
  decimals: OrNullString,
  holders_count: OrNullString,
  exchange_rate: OrNullString,
  total_supply: OrNullString,
  icon_url: OrNullString,
  circulating_market_cap: OrNullString,
});

/** The frontend's TokenInstance (token.ts). */
export const TokenInstanceSchema = Type.Object({
  is_unique: Type.Boolean(),
  id: Type.String(),
  holder_address_hash: OrNullString,
  image_url: OrNullString,
  animation_url: OrNullString,
  external_app_url: OrNullString,
  metadata: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
  owner: Type.Unknown(),
  thumbnails: Type.Unknown(),
});
