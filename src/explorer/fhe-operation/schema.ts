import { Type } from "@sinclair/typebox";

/** GET /transactions/{h}/fhe-operations (TransactionView "fhe_operations.json"). */
export const FheOperationsSchema = Type.Object({
  items: Type.Array(Type.Unknown()),
  total_hcu: Type.Integer(),
  max_depth_hcu: Type.Integer(),
  operation_count: Type.Integer(),
});
