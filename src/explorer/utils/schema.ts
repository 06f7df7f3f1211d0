import { Type } from "@sinclair/typebox";
import { ADDRESS_HASH_PATTERN } from "../errors.js";

/** What GET (query) and POST (body) accept; read loosely and checked by the handler, as Blockscout casts them. */
export const DecodeCalldataInput = Type.Object({
  calldata: Type.Optional(Type.String()),
  address_hash: Type.Optional(Type.String()),
});

export const CALLDATA_PATTERN = /^0x([0-9a-fA-F]{2})*$/;
export const ADDRESS_PATTERN = new RegExp(ADDRESS_HASH_PATTERN);

const Parameter = Type.Object({ name: Type.String(), type: Type.String(), value: Type.Unknown() });

/** `{result: decoded_input | null}` (the frontend's DecodedInput). */
export const DecodeCalldataSchema = Type.Object({
  result: Type.Union([
    Type.Object({ method_id: Type.String(), method_call: Type.String(), parameters: Type.Array(Parameter) }),
    Type.Null(),
  ]),
});

/** Blockscout's 422 for input it cannot cast. */
export const InvalidParametersSchema = Type.Object(
  { message: Type.Literal("Invalid parameter(s)") },
  { description: "Invalid calldata or address" },
);
