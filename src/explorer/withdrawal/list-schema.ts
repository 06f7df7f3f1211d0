import { Type } from "@sinclair/typebox";
import { AddressParamSchema } from "../objects/address-schema.js";

/** The frontend's WithdrawalsResponse (withdrawals.ts). */
export const WithdrawalsResponseSchema = Type.Object({
  items: Type.Array(
    Type.Object({
      index: Type.Integer(),
      validator_index: Type.Integer(),
      block_number: Type.Integer(),
      receiver: AddressParamSchema,
      amount: Type.String({ pattern: "^[0-9]+$" }),
      timestamp: Type.String({ pattern: "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?Z$" }),
    }),
  ),
  next_page_params: Type.Union([
    Type.Object({ index: Type.Integer(), items_count: Type.Integer() }),
    Type.Null(),
  ]),
});

/** The frontend's WithdrawalsCounters: decimal strings. */
export const WithdrawalsCountersSchema = Type.Object({
  withdrawals_count: Type.String({ pattern: "^[0-9]+$" }),
  withdrawals_sum: Type.String({ pattern: "^[0-9]+$" }),
});
