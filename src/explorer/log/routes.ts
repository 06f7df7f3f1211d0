import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "@sinclair/typebox";
import type { Hex } from "viem";
import type { ResourceOptions } from "../deps.js";
import { answers, FULL_HASH_PATTERN, NOT_FOUND } from "../errors.js";
import { ADDRESS_PARAMS, BLOCK_CURSOR, INDEX_CURSOR, lower, PAGING, TRANSACTION_PARAMS } from "../params.js";
import { knownTransaction } from "../transaction/known.js";
import { LogsResponseAddressSchema, LogsResponseTxSchema } from "./schema.js";
import { addressLogs, transactionLogs } from "./service.js";

const AddressQuery = Type.Object({
  topic: Type.Optional(Type.String({ pattern: FULL_HASH_PATTERN })),
  ...BLOCK_CURSOR,
  ...INDEX_CURSOR,
  transaction_index: Type.Optional(Type.Integer({ minimum: 0, maximum: 2 ** 31 - 1 })),
  ...PAGING,
});
// A transaction's logs page by `index` (its block is the transaction's); `block_number` is Blockscout's key beside
// it, and `transaction_hash` the one Lookout gave before: both accepted, neither needed.
const IndexQuery = Type.Object({
  ...BLOCK_CURSOR,
  ...INDEX_CURSOR,
  transaction_hash: Type.Optional(Type.String({ pattern: FULL_HASH_PATTERN })),
  ...PAGING,
});

/** /addresses/{h}/logs and /transactions/{h}/logs (404 if unknown). */
export const logRoutes: FastifyPluginAsyncTypebox<ResourceOptions> = async (app, { deps }) => {
  app.get(
    "/addresses/:address_hash_param/logs",
    {
      schema: {
        params: ADDRESS_PARAMS,
        querystring: AddressQuery,
        tags: ["addresses"],
        response: answers(LogsResponseAddressSchema),
      },
    },
    async (req) => {
      const q = req.query;
      return addressLogs(
        deps,
        lower(req.params.address_hash_param),
        q.topic === undefined ? null : lower<Hex>(q.topic),
        q.block_number !== undefined && q.index !== undefined
          ? { blockNumber: q.block_number, index: q.index }
          : null,
      );
    },
  );
  app.get(
    "/transactions/:transaction_hash_param/logs",
    {
      schema: {
        params: TRANSACTION_PARAMS,
        querystring: IndexQuery,
        tags: ["transactions"],
        response: answers(LogsResponseTxSchema, { notFound: true }),
      },
    },
    async (req, reply) => {
      const hash = lower<Hex>(req.params.transaction_hash_param);
      if (!(await knownTransaction(deps.db, hash))) return reply.code(404).send(NOT_FOUND);
      return transactionLogs(deps, hash, req.query.index ?? null);
    },
  );
};
