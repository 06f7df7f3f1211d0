import { Type } from "@sinclair/typebox";
import { AddressParamSchema, OrNull } from "../objects/address-schema.js";
import { TokenInfoSchema, TokenInstanceSchema } from "../objects/token-schema.js";

const Wei = Type.String({ pattern: "^-?[0-9]+$" });
const Balance = OrNull(Type.String({ pattern: "^[0-9]+$" }));

/** The frontend's TxStateChange (txStateChanges.ts, v2.0.3): the coin form and the token forms. */
export const StateChangeSchema = Type.Union([
  Type.Object({
    address: AddressParamSchema,
    is_miner: Type.Boolean(),
    balance_before: Balance,
    balance_after: Balance,
    type: Type.Literal("coin"),
    change: Wei,
    token: Type.Null(),
  }),
  Type.Object({
    address: AddressParamSchema,
    is_miner: Type.Boolean(),
    balance_before: Balance,
    balance_after: Balance,
    type: Type.Literal("token"),
    token: TokenInfoSchema,
    // ERC-20/1155/404: the amount; ERC-721: the transfers in and out with their ids.
    change: Type.Union([
      Wei,
      Type.Array(
        Type.Object({
          direction: Type.Union([Type.Literal("from"), Type.Literal("to")]),
          total: Type.Object({
            token_id: OrNull(Type.String()),
            token_instance: OrNull(TokenInstanceSchema),
          }),
        }),
      ),
    ]),
  }),
]);

/** TxStateChanges: the page and Blockscout's offset cursor. */
export const StateChangesSchema = Type.Object({
  items: Type.Array(StateChangeSchema),
  next_page_params: OrNull(Type.Object({ items_count: Type.Integer(), state_changes: Type.Null() })),
});
