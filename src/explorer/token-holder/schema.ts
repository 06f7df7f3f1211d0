import { type TSchema, Type } from "@sinclair/typebox";

// The frontend's types (v2.0.3 types/api/token.ts, tokens.ts, addressParams.ts) as JSON schemas: every member it
// declares without `?` is required; `X | null` must be present. Extra members are allowed (Blockscout sends more).
const S = Type.String();
const Null = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);
const Page = <T extends TSchema, P extends TSchema>(item: T, params: P) =>
  Type.Object({ items: Type.Array(item), next_page_params: Null(params) });

export const FrontendAddressParam = Type.Object({
  hash: S,
  implementations: Null(Type.Array(Type.Object({ address_hash: S, name: Type.Optional(Null(S)) }))),
  name: Null(S),
  is_contract: Type.Boolean(),
  is_verified: Null(Type.Boolean()),
  ens_domain_name: Null(S),
  private_tags: Null(Type.Array(Type.Unknown())),
  watchlist_names: Null(Type.Array(Type.Unknown())),
  public_tags: Null(Type.Array(Type.Unknown())),
});

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
export const FrontendTokenHolders = Page(
  Type.Object({ address: FrontendAddressParam, value: S, token_id: Type.Optional(Null(S)) }),
  Type.Object({ items_count: Type.Number(), value: S }),
);
export const FrontendTokenInstance = Type.Object({
  is_unique: Type.Boolean(),
  id: S,
  holder_address_hash: Null(S),
  image_url: Null(S),
  animation_url: Null(S),
  media_url: Type.Optional(Null(S)),
  media_type: Type.Optional(Null(S)),
  external_app_url: Null(S),
  metadata: Null(Type.Record(S, Type.Unknown())),
  owner: Null(FrontendAddressParam),
  thumbnails: Null(Type.Object({ original: S })),
});
export const FrontendTokenInventory = Page(
  FrontendTokenInstance,
  Type.Object({ unique_token: Type.Union([Type.Number(), S]) }),
);
export const FrontendTokenInstanceTransfersCount = Type.Object({ transfers_count: Type.Number() });
