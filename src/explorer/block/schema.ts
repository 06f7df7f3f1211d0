import { Type } from "@sinclair/typebox";
import { AddressParamSchema, OrNull } from "../objects/address-schema.js";

const Hash = Type.String({ pattern: "^0x[0-9a-f]{64}$" });
const Wei = Type.String({ pattern: "^[0-9]+$" });

/** The frontend's Block (block.ts, v2.0.3): every required member with its type. */
export const BlockSchema = Type.Object({
  height: Type.Integer(),
  timestamp: Type.String({ pattern: "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?Z$" }),
  transactions_count: Type.Integer(),
  miner: AddressParamSchema,
  size: Type.Integer(),
  hash: Hash,
  parent_hash: Hash,
  difficulty: Wei,
  total_difficulty: OrNull(Wei),
  gas_used: OrNull(Wei),
  gas_limit: Wei,
  nonce: Type.String({ pattern: "^0x[0-9a-f]+$" }),
  base_fee_per_gas: OrNull(Wei),
  burnt_fees: OrNull(Wei),
  priority_fee: OrNull(Wei),
  extra_data: OrNull(Type.String()),
  state_root: OrNull(Type.String()),
  rewards: Type.Optional(Type.Array(Type.Object({ reward: Wei, type: Type.String() }))),
  gas_target_percentage: OrNull(Type.Number()),
  gas_used_percentage: OrNull(Type.Number()),
  burnt_fees_percentage: OrNull(Type.Number()),
  type: Type.Union([Type.Literal("block"), Type.Literal("reorg"), Type.Literal("uncle")]),
  transaction_fees: OrNull(Wei),
  uncles_hashes: Type.Array(Type.String()),
  withdrawals_count: Type.Optional(OrNull(Type.Integer())),
  // blob fields (EIP-4844)
  blob_gas_price: Type.Optional(Wei),
  blob_gas_used: Type.Optional(Wei),
  burnt_blob_fees: Type.Optional(Wei),
  excess_blob_gas: Type.Optional(Wei),
  blob_transaction_count: Type.Optional(Type.Integer({ minimum: 0 })),
});

/** BlocksResponse / AddressBlocksValidatedResponse. */
export const BlocksPageSchema = Type.Object({
  items: Type.Array(BlockSchema),
  next_page_params: OrNull(Type.Object({ block_number: Type.Integer(), items_count: Type.Integer() })),
});
export const BlockListSchema = Type.Array(BlockSchema);
