import { Type } from "@sinclair/typebox";
import { AddressParamSchema } from "../objects/address-schema.js";

/** The frontend's DecodedInput (decodedInput.ts), as logs carry it (parameters may say `indexed`). */
export const DecodedLogSchema = Type.Object({
  method_call: Type.String(),
  method_id: Type.String(),
  parameters: Type.Array(
    Type.Object({
      name: Type.String(),
      type: Type.String(),
      value: Type.Union([
        Type.String(),
        Type.Array(Type.Unknown()),
        Type.Record(Type.String(), Type.Unknown()),
      ]),
      indexed: Type.Optional(Type.Boolean()),
    }),
  ),
});

/** The frontend's Log (log.ts). */
export const LogSchema = Type.Object({
  address: AddressParamSchema,
  topics: Type.Array(Type.Union([Type.String({ pattern: "^0x[0-9a-f]{64}$" }), Type.Null()])),
  data: Type.String({ pattern: "^0x([0-9a-f]{2})*$" }),
  index: Type.Integer(),
  decoded: Type.Union([DecodedLogSchema, Type.Null()]),
  transaction_hash: Type.Union([Type.String({ pattern: "^0x[0-9a-f]{64}$" }), Type.Null()]),
});

export const LogsResponseTxSchema = Type.Object({
  items: Type.Array(LogSchema),
  next_page_params: Type.Union([
    Type.Object({ block_number: Type.Integer(), index: Type.Integer(), items_count: Type.Integer() }),
    Type.Null(),
  ]),
});

export const LogsResponseAddressSchema = Type.Object({
  items: Type.Array(LogSchema),
  next_page_params: Type.Union([
    Type.Object({
      index: Type.Integer(),
      items_count: Type.Integer(),
      transaction_index: Type.Integer(),
      block_number: Type.Integer(),
    }),
    Type.Null(),
  ]),
});
