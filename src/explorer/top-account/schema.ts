import { Type } from "@sinclair/typebox";
import { AddressParamSchema, OrNull } from "../objects/address-schema.js";

const Wei = Type.String({ pattern: "^[0-9]+$" });

/** The frontend's AddressesResponse (addresses.ts); total_supply null as Blockscout sends it without market data. */
export const TopAccountsResponseSchema = Type.Object({
  items: Type.Array(
    Type.Intersect([AddressParamSchema, Type.Object({ coin_balance: OrNull(Wei), transactions_count: Wei })]),
  ),
  next_page_params: OrNull(
    Type.Object({
      fetched_coin_balance: Wei,
      hash: Type.String({ pattern: "^0x[0-9a-fA-F]{40}$" }),
      // Blockscout's key beyond the frontend's type (Address paging_params): the count orders page by it.
      transactions_count: Type.Integer(),
      items_count: Type.Integer(),
    }),
  ),
  exchange_rate: OrNull(Type.String()),
  total_supply: OrNull(Type.String()),
});
