import { Type } from "@sinclair/typebox";
import { AddressParamSchema } from "../objects/address-schema.js";

const Base = {
  error: Type.Union([Type.String(), Type.Null()]),
  success: Type.Boolean(),
  type: Type.Union(
    ["call", "delegatecall", "staticcall", "create", "create2", "selfdestruct", "reward"].map((t) =>
      Type.Literal(t),
    ),
  ),
  transaction_hash: Type.String({ pattern: "^0x[0-9a-f]{64}$" }),
  from: AddressParamSchema,
  value: Type.String({ pattern: "^[0-9]+$" }),
  index: Type.Integer(),
  block_number: Type.Integer(),
  timestamp: Type.String({ pattern: "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?Z$" }),
  gas_limit: Type.String({ pattern: "^[0-9]+$" }),
};

/** The frontend's InternalTransaction: `to` or `created_contract`, never both. */
export const InternalTransactionSchema = Type.Union([
  Type.Object({ ...Base, to: AddressParamSchema, created_contract: Type.Null() }),
  Type.Object({ ...Base, to: Type.Null(), created_contract: AddressParamSchema }),
]);

const Cursor = Type.Object({
  block_number: Type.Integer(),
  index: Type.Integer(),
  items_count: Type.Integer(),
  transaction_index: Type.Integer(),
  // /internal-transactions?transaction_hash= keeps the hash (Blockscout keeps that request parameter).
  transaction_hash: Type.Optional(Type.String({ pattern: "^0x[0-9a-f]{64}$" })),
});

export const InternalTransactionsResponseSchema = Type.Object({
  items: Type.Array(InternalTransactionSchema),
  next_page_params: Type.Union([Cursor, Type.Null()]),
});
