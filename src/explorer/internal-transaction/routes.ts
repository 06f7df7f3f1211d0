import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "@sinclair/typebox";
import type { Hex } from "viem";
import { blockByHash, blockByNumber } from "../block/query.js";
import type { ResourceOptions } from "../deps.js";
import { answers, FULL_HASH_PATTERN, NOT_FOUND } from "../errors.js";
import {
  ADDRESS_PARAMS,
  BLOCK_CURSOR,
  BLOCK_PARAMS,
  blockId,
  INDEX_CURSOR,
  lower,
  PAGING,
  TRANSACTION_PARAMS,
} from "../params.js";
import { knownTransaction } from "../transaction/known.js";
import { BlockInternalTransactionsResponseSchema } from "./block-schema.js";
import { InternalTransactionsResponseSchema } from "./schema.js";
import { addressInternalTxs, allInternalTxs, blockInternalTxs, transactionInternalTxs } from "./service.js";

const Int32 = Type.Optional(Type.Integer({ minimum: 0, maximum: 2 ** 31 - 1 }));
const Direction = Type.Optional(Type.Union([Type.Literal("to"), Type.Literal("from")]));
const AddressQuery = Type.Object({
  filter: Direction,
  ...BLOCK_CURSOR,
  transaction_index: Int32,
  ...INDEX_CURSOR,
  ...PAGING,
});
const AllQuery = Type.Object({
  transaction_hash: Type.Optional(
    Type.String({ pattern: FULL_HASH_PATTERN, description: "Only this transaction's internal transactions" }),
  ),
  ...BLOCK_CURSOR,
  transaction_index: Int32,
  ...INDEX_CURSOR,
  ...PAGING,
});
const IndexQuery = Type.Object({ ...INDEX_CURSOR, ...PAGING });
const page = answers(InternalTransactionsResponseSchema);

// Blockscout's InternalTransaction.Type and CallType values for a plain EVM chain.
const FRAME_TYPES = ["call", "create", "create2", "reward", "selfdestruct", "stop"];
const CALL_TYPES = ["call", "callcode", "delegatecall", "staticcall"] as const;
const BlockQuery = Type.Object({
  // Read as Blockscout's parse_filter reads it: a comma list (optionally in brackets), unknown labels dropped.
  type: Type.Optional(Type.String()),
  call_type: Type.Optional(Type.Union(CALL_TYPES.map((t) => Type.Literal(t)))),
  transaction_index: Int32,
  ...INDEX_CURSOR,
  ...PAGING,
});

function frameTypes(raw: string | undefined): string[] {
  if (!raw) return [];
  const labels = raw.replace(/^\[/, "").replace(/\]$/, "").split(",");
  return [...new Set(labels.filter((l) => FRAME_TYPES.includes(l)))];
}

/**
 * /internal-transactions, /addresses/{h}/internal-transactions, /transactions/{h}/internal-transactions and
 * /blocks/{b}/internal-transactions (404 for an unknown transaction or block).
 */
export const internalTransactionRoutes: FastifyPluginAsyncTypebox<ResourceOptions> = async (
  app,
  { deps },
) => {
  app.get(
    "/internal-transactions",
    { schema: { querystring: AllQuery, tags: ["internal-transactions"], response: page } },
    (req) => {
      const q = req.query;
      // Blockscout's transaction_to_internal_transactions: the frames in order after `index` (an unknown hash has
      // none); the rest of the cursor names the same transaction.
      if (q.transaction_hash !== undefined) {
        const hash = lower<Hex>(q.transaction_hash);
        return transactionInternalTxs(deps, hash, q.index ?? null, { transaction_hash: hash });
      }
      return allInternalTxs(
        deps,
        q.block_number !== undefined && q.index !== undefined && q.transaction_index !== undefined
          ? { blockNumber: q.block_number, transactionIndex: q.transaction_index, index: q.index }
          : null,
      );
    },
  );
  app.get(
    "/addresses/:address_hash_param/internal-transactions",
    { schema: { params: ADDRESS_PARAMS, querystring: AddressQuery, tags: ["addresses"], response: page } },
    async (req) => {
      const q = req.query;
      return addressInternalTxs(
        deps,
        lower(req.params.address_hash_param),
        q.filter ?? null,
        q.block_number !== undefined && q.index !== undefined && q.transaction_index !== undefined
          ? { blockNumber: q.block_number, transactionIndex: q.transaction_index, index: q.index }
          : null,
      );
    },
  );
  app.get(
    "/transactions/:transaction_hash_param/internal-transactions",
    {
      schema: {
        params: TRANSACTION_PARAMS,
        querystring: IndexQuery,
        tags: ["transactions"],
        response: answers(InternalTransactionsResponseSchema, { notFound: true }),
      },
    },
    async (req, reply) => {
      const hash = lower<Hex>(req.params.transaction_hash_param);
      if (!(await knownTransaction(deps.db, hash))) return reply.code(404).send(NOT_FOUND);
      return transactionInternalTxs(deps, hash, req.query.index ?? null);
    },
  );
  app.get(
    "/blocks/:block_hash_or_number_param/internal-transactions",
    {
      schema: {
        params: BLOCK_PARAMS,
        querystring: BlockQuery,
        tags: ["blocks"],
        response: answers(BlockInternalTransactionsResponseSchema, { notFound: true }),
      },
    },
    async (req, reply) => {
      const id = blockId(req.params.block_hash_or_number_param);
      const block =
        "number" in id ? await blockByNumber(deps.db, id.number) : await blockByHash(deps.db, id.hash);
      if (!block) return reply.code(404).send(NOT_FOUND);
      const q = req.query;
      const keep: Record<string, unknown> = {};
      if (q.call_type !== undefined) keep.call_type = q.call_type;
      return blockInternalTxs(
        deps,
        Number(block.number),
        { types: frameTypes(q.type), callTypes: q.call_type ? [q.call_type] : [] },
        keep,
        q.transaction_index !== undefined && q.index !== undefined
          ? { transactionIndex: q.transaction_index, index: q.index }
          : null,
      );
    },
  );
};
