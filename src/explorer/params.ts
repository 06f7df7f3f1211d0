import { Type } from "@sinclair/typebox";
import type { Address, Hex } from "viem";
import { ADDRESS_HASH_PATTERN, FULL_HASH_PATTERN } from "./errors.js";

// Heights are int8 in the database; above 2^53-1 a JS number would no longer be exact.
const Height = Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER });

/** Query members every paged /api/v2 list accepts: the echoed items_count (1..50, as Blockscout 9.x) and keys. */
export const PAGING = {
  items_count: Type.Optional(Type.Integer({ minimum: 1, maximum: 50 })),
  apikey: Type.Optional(Type.String()),
  key: Type.Optional(Type.String()),
};

/** The (block_number, index) cursor of transaction lists. */
export const TX_CURSOR = {
  block_number: Type.Optional(Height),
  index: Type.Optional(Type.Integer({ minimum: 0, maximum: 2 ** 31 - 1 })),
};

export const BLOCK_CURSOR = { block_number: Type.Optional(Height) };

/** The cursor when both of its keys are given (Blockscout starts from the first page otherwise). */
export function txCursor(q: { block_number?: number; index?: number }) {
  return q.block_number !== undefined && q.index !== undefined
    ? { blockNumber: q.block_number, index: q.index }
    : null;
}

/** The `index` cursor of lists within one transaction or block. */
export const INDEX_CURSOR = { index: Type.Optional(Type.Integer({ minimum: 0, maximum: 2 ** 31 - 1 })) };

const TOKEN_TYPE = "(ERC-20|ERC-721|ERC-1155|ERC-404)";

/** `type=ERC-20,ERC-721`: the token types a list keeps (any other value is a 422). */
export const TOKEN_TYPES_QUERY = {
  type: Type.Optional(Type.String({ pattern: `^${TOKEN_TYPE}(,${TOKEN_TYPE})*$` })),
};

export function tokenTypes<T extends string = string>(raw: string | undefined): T[] | null {
  return raw ? ([...new Set(raw.split(","))] as T[]) : null;
}

/** Path parameters, named as Blockscout names them (its 422 pointers say `/<name>`). */
export const ADDRESS_PARAMS = Type.Object({
  address_hash_param: Type.String({ pattern: ADDRESS_HASH_PATTERN }),
});
export const TRANSACTION_PARAMS = Type.Object({
  transaction_hash_param: Type.String({ pattern: FULL_HASH_PATTERN }),
});
export const BLOCK_PARAMS = Type.Object({
  block_hash_or_number_param: Type.String({ pattern: "^(0x[A-Fa-f0-9]{64}|[0-9]{1,15})$" }),
});
const TOKEN_ID_PATTERN = "^[0-9]{1,78}$";
export const TOKEN_INSTANCE_PARAMS = Type.Object({
  address_hash_param: Type.String({ pattern: ADDRESS_HASH_PATTERN }),
  token_id_param: Type.String({ pattern: TOKEN_ID_PATTERN }),
});

/** A block by number or hash, as `/blocks/{block_hash_or_number_param}` names it. */
export function blockId(p: string): { number: number } | { hash: Hex } {
  return p.startsWith("0x") ? { hash: p.toLowerCase() as Hex } : { number: Number(p) };
}

/** Hashes are stored and compared lower-case. */
export const lower = <T extends string = Address>(h: string) => h.toLowerCase() as T;
