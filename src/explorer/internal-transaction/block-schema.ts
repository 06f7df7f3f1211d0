import { Type } from "@sinclair/typebox";
import { InternalTransactionSchema } from "./schema.js";

/** `/blocks/{b}/internal-transactions`: the block is the path's, so the cursor has no block_number. */
export const BlockInternalTransactionsResponseSchema = Type.Object({
  items: Type.Array(InternalTransactionSchema),
  next_page_params: Type.Union([
    Type.Object({
      transaction_index: Type.Integer(),
      index: Type.Integer(),
      items_count: Type.Integer(),
      type: Type.Optional(Type.String()),
      call_type: Type.Optional(Type.String()),
    }),
    Type.Null(),
  ]),
});
