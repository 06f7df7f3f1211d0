import { type TSchema, Type } from "@sinclair/typebox";

// The frontend's types (v2.0.3 types/api/token.ts, tokens.ts, addressParams.ts) as JSON schemas: every member it
// declares without `?` is required; `X | null` must be present. Extra members are allowed (Blockscout sends more).
// Shared by the token resources' schemas (token, token-holder, token-instance).
export const S = Type.String();
export const Null = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);
export const Page = <T extends TSchema, P extends TSchema>(item: T, params: P) =>
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
