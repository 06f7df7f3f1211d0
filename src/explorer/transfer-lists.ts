import { Type } from "@sinclair/typebox";
import type { FastifyPluginAsync } from "fastify";
import type { Address } from "viem";
import { type ExplorerRouteOptions, explorerDeps } from "./deps.js";
import { ADDRESS_HASH_PATTERN, NOT_FOUND } from "./errors.js";
import { allInternalTxs } from "./internal-transaction/service.js";
import { BLOCK_CURSOR, INDEX_CURSOR, PAGING, TOKEN_TYPES_QUERY, tokenTypes } from "./params.js";
import { tokenType } from "./token-holder/query.js";
import type { TransferCursor } from "./token-transfer/query.js";
import { tokenTransfers } from "./token-transfer/service.js";

const Int32 = Type.Optional(Type.Integer({ minimum: 0, maximum: 2 ** 31 - 1 }));
const Token = Type.Object({ address_hash_param: Type.String({ pattern: ADDRESS_HASH_PATTERN }) });
const Instance = Type.Object({
  address_hash_param: Type.String({ pattern: ADDRESS_HASH_PATTERN }),
  token_id_param: Type.String({ pattern: "^[0-9]{1,78}$" }),
});
const TransfersQuery = Type.Object({
  ...TOKEN_TYPES_QUERY,
  ...BLOCK_CURSOR,
  ...INDEX_CURSOR,
  batch_index: Int32,
  ...PAGING,
});
const InternalQuery = Type.Object({ ...BLOCK_CURSOR, transaction_index: Int32, ...INDEX_CURSOR, ...PAGING });

type Q = {
  type?: string;
  block_number?: number;
  index?: number;
  batch_index?: number;
  transaction_index?: number;
};
type P = { address_hash_param: string; token_id_param: string };

/** The cursor when its keys are given (Blockscout starts from the first page otherwise). */
function transferCursorOf(q: Q): TransferCursor | null {
  return q.block_number !== undefined && q.index !== undefined
    ? { blockNumber: q.block_number, logIndex: q.index, batchIndex: q.batch_index ?? 0 }
    : null;
}

/**
 * Chain-wide lists: `/token-transfers`, `/internal-transactions`; a token's and an instance's transfers
 * (`/tokens/{h}/transfers`, `/tokens/{h}/instances/{id}/transfers`; an unknown token is a 404).
 */
export const transferListRoutes: FastifyPluginAsync<ExplorerRouteOptions> = async (app, opts) => {
  const deps = explorerDeps(opts);
  app.get(
    "/token-transfers",
    { schema: { querystring: TransfersQuery, tags: ["token-transfers"] } },
    (req) => {
      const q = req.query as Q;
      return tokenTransfers(deps, {}, tokenTypes(q.type), transferCursorOf(q));
    },
  );
  app.get(
    "/internal-transactions",
    { schema: { querystring: InternalQuery, tags: ["internal-transactions"] } },
    (req) => {
      const q = req.query as Q;
      const full = q.block_number !== undefined && q.index !== undefined && q.transaction_index !== undefined;
      return allInternalTxs(
        deps,
        full
          ? { blockNumber: q.block_number!, transactionIndex: q.transaction_index!, index: q.index! }
          : null,
      );
    },
  );
  app.get(
    "/tokens/:address_hash_param/transfers",
    { schema: { params: Token, querystring: TransfersQuery, tags: ["tokens"] } },
    async (req, reply) => {
      const token = (req.params as P).address_hash_param.toLowerCase() as Address;
      if ((await tokenType(deps.db, token)) === null) return reply.code(404).send(NOT_FOUND);
      return tokenTransfers(deps, { token }, null, transferCursorOf(req.query as Q));
    },
  );
  app.get(
    "/tokens/:address_hash_param/instances/:token_id_param/transfers",
    { schema: { params: Instance, querystring: TransfersQuery, tags: ["tokens"] } },
    async (req, reply) => {
      const { address_hash_param, token_id_param } = req.params as P;
      const token = address_hash_param.toLowerCase() as Address;
      if ((await tokenType(deps.db, token)) === null) return reply.code(404).send(NOT_FOUND);
      return tokenTransfers(deps, { token, tokenId: token_id_param }, null, transferCursorOf(req.query as Q));
    },
  );
};
