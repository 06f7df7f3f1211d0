import { Type } from "@sinclair/typebox";
import { NullableString } from "../address/schema.js";

/** The token object of view.ts as items carry it: every field (a response schema drops unlisted ones). */
export const TokenObjectSchema = Type.Object({
  address_hash: Type.String(),
  circulating_market_cap: NullableString,
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
