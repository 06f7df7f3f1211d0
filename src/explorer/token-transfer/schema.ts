import { Type } from "@sinclair/typebox";
import { AddressParamSchema } from "../objects/address-schema.js";
import { TokenInfoSchema, TokenInstanceSchema } from "../objects/token-schema.js";

const Int = Type.String({ pattern: "^[0-9]+$" });
const OrNull = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);
const Instance = OrNull(TokenInstanceSchema);

/** The frontend's TokenTransfer (tokenTransfer.ts): the union of the per-standard totals and the common base. */
export const TokenTransferSchema = Type.Object({
  token: OrNull(TokenInfoSchema),
  total: OrNull(
    Type.Union([
      Type.Object({ decimals: OrNull(Type.String()), value: Int }),
      Type.Object({ token_id: OrNull(Int), token_instance: Instance }),
    ]),
  ),
  type: Type.Union([
    Type.Literal("token_transfer"),
    Type.Literal("token_burning"),
    Type.Literal("token_spawning"),
    Type.Literal("token_minting"),
  ]),
  transaction_hash: Type.String({ pattern: "^0x[0-9a-f]{64}$" }),
  from: AddressParamSchema,
  to: AddressParamSchema,
  timestamp: Type.String({ pattern: "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?Z$" }),
  // The type says string; Blockscout renders numbers. Both pass.
  block_number: Type.Union([Type.Integer(), Int]),
  block_hash: Type.String({ pattern: "^0x[0-9a-f]{64}$" }),
  log_index: Type.Union([Type.Integer(), Int]),
  method: Type.Optional(OrNull(Type.String())),
});

export const TokenTransferResponseSchema = Type.Object({
  items: Type.Array(TokenTransferSchema),
  next_page_params: OrNull(
    Type.Object({ block_number: Type.Integer(), index: Type.Integer(), items_count: Type.Integer() }),
  ),
});
