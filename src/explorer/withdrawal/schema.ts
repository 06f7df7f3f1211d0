import { Type } from "@sinclair/typebox";
import { AddressParamSchema } from "../objects/address-schema.js";

const Amount = Type.String({ pattern: "^[0-9]+$" });
const Cursor = Type.Union([Type.Object({ index: Type.Integer(), items_count: Type.Integer() }), Type.Null()]);

/** The frontend's BlockWithdrawalsResponse (block.ts). */
export const BlockWithdrawalsResponseSchema = Type.Object({
  items: Type.Array(
    Type.Object({
      amount: Amount,
      index: Type.Integer(),
      receiver: AddressParamSchema,
      validator_index: Type.Integer(),
    }),
  ),
  next_page_params: Cursor,
});

/** The frontend's AddressWithdrawalsResponse (address.ts). */
export const AddressWithdrawalsResponseSchema = Type.Object({
  items: Type.Array(
    Type.Object({
      amount: Amount,
      block_number: Type.Integer(),
      index: Type.Integer(),
      timestamp: Type.String({ pattern: "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?Z$" }),
      validator_index: Type.Integer(),
    }),
  ),
  next_page_params: Cursor,
});
