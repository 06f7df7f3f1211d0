import { Type } from "@sinclair/typebox";
import { TokenInfoSchema, TokenInstanceSchema } from "../objects/token-schema.js";

/** The frontend's AddressTokenBalance (address.ts). */
export const AddressTokenBalanceSchema = Type.Object({
  token: TokenInfoSchema,
  token_id: Type.Union([Type.String({ pattern: "^[0-9]+$" }), Type.Null()]),
  value: Type.String({ pattern: "^[0-9]+$" }),
  token_instance: Type.Union([TokenInstanceSchema, Type.Null()]),
});

export const TokenBalancesSchema = Type.Array(AddressTokenBalanceSchema);

/** The frontend's AddressTokensResponse; `value` is echoed as a decimal string (exact beyond 2^53). */
export const AddressTokensResponseSchema = Type.Object({
  items: Type.Array(AddressTokenBalanceSchema),
  next_page_params: Type.Union([
    Type.Object({
      items_count: Type.Integer(),
      token_name: Type.Union([Type.String(), Type.Null()]),
      token_type: Type.String(),
      value: Type.Union([Type.Number(), Type.String()]),
      fiat_value: Type.Union([Type.String(), Type.Null()]),
    }),
    Type.Null(),
  ]),
});
