import { Type } from "@sinclair/typebox";
import type { FastifyPluginAsync } from "fastify";
import type { Hex } from "viem";
import { type ExplorerRouteOptions, explorerDeps } from "./deps.js";
import { FULL_HASH_PATTERN, NOT_FOUND } from "./errors.js";
import { transactionInternalTxs } from "./internal-transaction/service.js";
import { transactionLogs } from "./log/service.js";
import { INDEX_CURSOR, PAGING, TOKEN_TYPES_QUERY, tokenTypes } from "./params.js";
import { transactionTokenTransfers } from "./token-transfer/service.js";
import { transactionByHash } from "./transaction/query.js";
import { blockWithdrawals } from "./withdrawal/service.js";

const TxParams = Type.Object({ transaction_hash_param: Type.String({ pattern: FULL_HASH_PATTERN }) });
const BlockParams = Type.Object({
  block_hash_or_number_param: Type.String({ pattern: "^(0x[A-Fa-f0-9]{64}|[0-9]{1,15})$" }),
});
const IndexQuery = Type.Object({ ...INDEX_CURSOR, ...PAGING });
const TransfersQuery = Type.Object({
  ...TOKEN_TYPES_QUERY,
  ...INDEX_CURSOR,
  block_number: Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER })),
  batch_index: Type.Optional(Type.Integer({ minimum: 0, maximum: 2 ** 31 - 1 })),
  ...PAGING,
});
const WithdrawalsQuery = Type.Object({
  index: Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER })),
  ...PAGING,
});

type IndexQ = { index?: number; batch_index?: number; type?: string };

/** A transaction's token transfers, internal transactions and logs; a block's withdrawals. Unknown: 404. */
export const transactionListRoutes: FastifyPluginAsync<ExplorerRouteOptions> = async (app, opts) => {
  const deps = explorerDeps(opts);
  const hashOf = (req: { params: unknown }) =>
    (req.params as { transaction_hash_param: string }).transaction_hash_param.toLowerCase() as Hex;
  const known = async (hash: Hex) => (await transactionByHash(deps.db, hash)) !== null;
  const schema = (querystring: object) => ({ params: TxParams, querystring, tags: ["transactions"] });

  app.get(
    "/transactions/:transaction_hash_param/token-transfers",
    { schema: schema(TransfersQuery) },
    async (req, reply) => {
      const hash = hashOf(req);
      if (!(await known(hash))) return reply.code(404).send(NOT_FOUND);
      const q = req.query as IndexQ;
      const after =
        q.index === undefined ? null : { blockNumber: 0, logIndex: q.index, batchIndex: q.batch_index ?? 0 };
      return transactionTokenTransfers(deps, hash, tokenTypes(q.type), after);
    },
  );
  app.get(
    "/transactions/:transaction_hash_param/internal-transactions",
    { schema: schema(IndexQuery) },
    async (req, reply) => {
      const hash = hashOf(req);
      if (!(await known(hash))) return reply.code(404).send(NOT_FOUND);
      return transactionInternalTxs(deps, hash, (req.query as IndexQ).index ?? null);
    },
  );
  app.get(
    "/transactions/:transaction_hash_param/logs",
    { schema: schema(IndexQuery) },
    async (req, reply) => {
      const hash = hashOf(req);
      if (!(await known(hash))) return reply.code(404).send(NOT_FOUND);
      return transactionLogs(deps, hash, (req.query as IndexQ).index ?? null);
    },
  );
  app.get(
    "/blocks/:block_hash_or_number_param/withdrawals",
    { schema: { params: BlockParams, querystring: WithdrawalsQuery, tags: ["blocks"] } },
    async (req, reply) => {
      const p = (req.params as { block_hash_or_number_param: string }).block_hash_or_number_param;
      const ref = p.startsWith("0x") ? (p.toLowerCase() as Hex) : Number(p);
      const { index } = req.query as { index?: number };
      const page = await blockWithdrawals(deps, ref, index === undefined ? null : BigInt(index));
      return page ?? reply.code(404).send(NOT_FOUND);
    },
  );
};
