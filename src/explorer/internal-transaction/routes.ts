import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "@sinclair/typebox";
import type { Hex } from "viem";
import type { ResourceOptions } from "../deps.js";
import { answers, NOT_FOUND } from "../errors.js";
import { ADDRESS_PARAMS, BLOCK_CURSOR, INDEX_CURSOR, lower, PAGING, TRANSACTION_PARAMS } from "../params.js";
import { knownTransaction } from "../transaction/known.js";
import { InternalTransactionsResponseSchema } from "./schema.js";
import { addressInternalTxs, allInternalTxs, transactionInternalTxs } from "./service.js";

const Int32 = Type.Optional(Type.Integer({ minimum: 0, maximum: 2 ** 31 - 1 }));
const Direction = Type.Optional(Type.Union([Type.Literal("to"), Type.Literal("from")]));
const AddressQuery = Type.Object({
  filter: Direction,
  ...BLOCK_CURSOR,
  transaction_index: Int32,
  ...INDEX_CURSOR,
  ...PAGING,
});
const AllQuery = Type.Object({ ...BLOCK_CURSOR, transaction_index: Int32, ...INDEX_CURSOR, ...PAGING });
const IndexQuery = Type.Object({ ...INDEX_CURSOR, ...PAGING });
const page = answers(InternalTransactionsResponseSchema);

/** /internal-transactions, /addresses/{h}/internal-transactions, /transactions/{h}/internal-transactions (404 if unknown). */
export const internalTransactionRoutes: FastifyPluginAsyncTypebox<ResourceOptions> = async (
  app,
  { deps },
) => {
  app.get(
    "/internal-transactions",
    { schema: { querystring: AllQuery, tags: ["internal-transactions"], response: page } },
    (req) => {
      const q = req.query;
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
};
