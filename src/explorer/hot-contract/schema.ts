import { Type } from "@sinclair/typebox";
import { AddressParamSchema, OrNull } from "../objects/address-schema.js";

const Integer = Type.String({ pattern: "^[0-9]+$" });

/** The frontend's HotContractsResponse (stats.ts). */
export const HotContractsResponseSchema = Type.Object({
  items: Type.Array(
    Type.Object({
      contract_address: AddressParamSchema,
      transactions_count: Integer,
      total_gas_used: Integer,
      balance: OrNull(Integer),
    }),
  ),
  next_page_params: OrNull(
    Type.Object({
      scale: Type.String(),
      contract_address_hash: Type.String({ pattern: "^0x[0-9a-fA-F]{40}$" }),
      transactions_count: Type.Integer(),
      total_gas_used: Integer,
    }),
  ),
});
