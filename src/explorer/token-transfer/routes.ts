import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "@sinclair/typebox";
import type { Address, Hex } from "viem";
import type { ResourceOptions } from "../deps.js";
import { ADDRESS_HASH_PATTERN, answers, NOT_FOUND } from "../errors.js";
import {
  ADDRESS_PARAMS,
  BLOCK_CURSOR,
  INDEX_CURSOR,
  lower,
  PAGING,
  TOKEN_INSTANCE_PARAMS,
  TOKEN_TYPES_QUERY,
  TRANSACTION_PARAMS,
  tokenTypes,
} from "../params.js";
import { tokenType } from "../token/query.js";
import { knownTransaction } from "../transaction/known.js";
import type { TransferCursor } from "./query.js";
import { TokenTransferResponseSchema } from "./schema.js";
import { addressTokenTransfers, tokenTransfers, transactionTokenTransfers } from "./service.js";

const Int32 = Type.Optional(Type.Integer({ minimum: 0, maximum: 2 ** 31 - 1 }));
const TransfersQuery = Type.Object({
  ...TOKEN_TYPES_QUERY,
  ...BLOCK_CURSOR,
  ...INDEX_CURSOR,
  batch_index: Int32,
  ...PAGING,
});
const AddressQuery = Type.Object({
  filter: Type.Optional(Type.Union([Type.Literal("to"), Type.Literal("from")])),
  ...TOKEN_TYPES_QUERY,
  token: Type.Optional(Type.String({ pattern: ADDRESS_HASH_PATTERN })),
  ...BLOCK_CURSOR,
  ...INDEX_CURSOR,
  batch_index: Int32,
  ...PAGING,
});
const TransactionQuery = Type.Object({
  ...TOKEN_TYPES_QUERY,
  ...INDEX_CURSOR,
  block_number: Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER })),
  batch_index: Int32,
  ...PAGING,
});
const page = answers(TokenTransferResponseSchema);
const pageOr404 = answers(TokenTransferResponseSchema, { notFound: true });

/** The cursor when its keys are given (Blockscout starts from the first page otherwise). */
export function transferCursorOf(q: {
  block_number?: number;
  index?: number;
  batch_index?: number;
}): TransferCursor | null {
  return q.block_number !== undefined && q.index !== undefined
    ? { blockNumber: q.block_number, logIndex: q.index, batchIndex: q.batch_index ?? 0 }
    : null;
}

/**
 * /token-transfers, /addresses/{h}/token-transfers, /transactions/{h}/token-transfers, a token's and an instance's
 * transfers (/tokens/{h}/transfers, /tokens/{h}/instances/{id}/transfers). An unknown transaction or token is a 404.
 */
export const tokenTransferRoutes: FastifyPluginAsyncTypebox<ResourceOptions> = async (app, { deps }) => {
  app.get(
    "/token-transfers",
    { schema: { querystring: TransfersQuery, tags: ["token-transfers"], response: page } },
    (req) => tokenTransfers(deps, {}, tokenTypes(req.query.type), transferCursorOf(req.query)),
  );
  app.get(
    "/addresses/:address_hash_param/token-transfers",
    { schema: { params: ADDRESS_PARAMS, querystring: AddressQuery, tags: ["addresses"], response: page } },
    async (req) => {
      const q = req.query;
      return addressTokenTransfers(
        deps,
        lower(req.params.address_hash_param),
        {
          direction: q.filter ?? null,
          types: tokenTypes(q.type),
          token: q.token === undefined ? null : lower<Address>(q.token),
        },
        transferCursorOf(q),
      );
    },
  );
  app.get(
    "/transactions/:transaction_hash_param/token-transfers",
    {
      schema: {
        params: TRANSACTION_PARAMS,
        querystring: TransactionQuery,
        tags: ["transactions"],
        response: pageOr404,
      },
    },
    async (req, reply) => {
      const hash = lower<Hex>(req.params.transaction_hash_param);
      if (!(await knownTransaction(deps.db, hash))) return reply.code(404).send(NOT_FOUND);
      const q = req.query;
      const after =
        q.index === undefined ? null : { blockNumber: 0, logIndex: q.index, batchIndex: q.batch_index ?? 0 };
      return transactionTokenTransfers(deps, hash, tokenTypes(q.type), after);
    },
  );
  app.get(
    "/tokens/:address_hash_param/transfers",
    {
      schema: { params: ADDRESS_PARAMS, querystring: TransfersQuery, tags: ["tokens"], response: pageOr404 },
    },
    async (req, reply) => {
      const token: Address = lower(req.params.address_hash_param);
      if ((await tokenType(deps.db, token)) === null) return reply.code(404).send(NOT_FOUND);
      return tokenTransfers(deps, { token }, null, transferCursorOf(req.query));
    },
  );
  app.get(
    "/tokens/:address_hash_param/instances/:token_id_param/transfers",
    {
      schema: {
        params: TOKEN_INSTANCE_PARAMS,
        querystring: TransfersQuery,
        tags: ["tokens"],
        response: pageOr404,
      },
    },
    async (req, reply) => {
      const token: Address = lower(req.params.address_hash_param);
      if ((await tokenType(deps.db, token)) === null) return reply.code(404).send(NOT_FOUND);
      return tokenTransfers(
        deps,
        { token, tokenId: req.params.token_id_param },
        null,
        transferCursorOf(req.query),
      );
    },
  );
};
