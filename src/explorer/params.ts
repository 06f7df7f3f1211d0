import { Type } from "@sinclair/typebox";

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
