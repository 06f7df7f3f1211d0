import { Type } from "@sinclair/typebox";
import { OrNull } from "../objects/address-schema.js";

/** The frontend's SearchResultItem kinds Lookout answers (search.ts, v2.0.3). */
export const SearchItemSchema = Type.Union([
  Type.Object({
    type: Type.Union([Type.Literal("address"), Type.Literal("contract")]),
    name: OrNull(Type.String()),
    address_hash: Type.String(),
    is_smart_contract_verified: Type.Boolean(),
  }),
  Type.Object({
    type: Type.Literal("token"),
    name: Type.String(),
    symbol: Type.String(),
    address_hash: Type.String(),
    token_url: Type.String(),
    address_url: Type.String(),
    icon_url: OrNull(Type.String()),
    token_type: Type.String(),
    exchange_rate: OrNull(Type.String()),
    total_supply: OrNull(Type.String()),
    is_verified_via_admin_panel: Type.Boolean(),
    is_smart_contract_verified: Type.Boolean(),
  }),
  Type.Object({
    type: Type.Literal("block"),
    block_number: Type.Union([Type.Integer(), Type.String()]),
    block_hash: Type.String(),
    timestamp: Type.String(),
  }),
  Type.Object({
    type: Type.Literal("transaction"),
    transaction_hash: Type.String(),
    timestamp: Type.String(),
  }),
]);

/** SearchResult. */
export const SearchResultSchema = Type.Object({
  items: Type.Array(SearchItemSchema),
  next_page_params: OrNull(Type.Object({})),
});
export const QuickSearchSchema = Type.Array(SearchItemSchema);

/** SearchRedirectResult. */
export const RedirectSchema = Type.Object({
  parameter: OrNull(Type.String()),
  redirect: Type.Boolean(),
  type: OrNull(
    Type.Union([
      Type.Literal("address"),
      Type.Literal("block"),
      Type.Literal("transaction"),
      Type.Literal("user_operation"),
      Type.Literal("blob"),
    ]),
  ),
});
