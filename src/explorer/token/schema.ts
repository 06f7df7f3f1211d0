import { Type } from "@sinclair/typebox";
import { Null, Page, S } from "../frontend-schema.js";

export const FrontendTokenInfo = Type.Object({
  address_hash: S,
  type: Type.Union(["ERC-20", "ERC-721", "ERC-1155", "ERC-404"].map((t) => Type.Literal(t))),
  symbol: Null(S),
  name: Null(S),
  decimals: Null(S),
  holders_count: Null(S),
  exchange_rate: Null(S),
  total_supply: Null(S),
  icon_url: Null(S),
  circulating_market_cap: Null(S),
});

export const FrontendTokensResponse = Page(FrontendTokenInfo, Type.Object({}));
export const FrontendTokenCounters = Type.Object({ token_holders_count: S, transfers_count: S });
