import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "@sinclair/typebox";
import type { Hex } from "viem";
import { blockByHash, blockByNumber } from "../block/query.js";
import type { ResourceOptions } from "../deps.js";
import { answers, NOT_FOUND, NotFoundSchema, V2ErrorSchema } from "../errors.js";
import {
  ADDRESS_PARAMS,
  BLOCK_CURSOR,
  BLOCK_PARAMS,
  blockId,
  lower,
  PAGING,
  TRANSACTION_PARAMS,
  TX_CURSOR,
  txCursor,
} from "../params.js";
import {
  ADDRESS_TX_SORT_QUERY,
  addressTxSort,
  methodSelectors,
  sortedTxCursor,
  TRANSACTION_FILTER_QUERY,
  transactionTypes,
} from "./filters.js";
import { rawTrace } from "./raw-trace.js";
import {
  AddressTransactionsPageSchema,
  RawTraceSchema,
  TransactionListSchema,
  TransactionSchema,
  TransactionsPageSchema,
} from "./schema.js";
import {
  addressTransactions,
  blockTransactions,
  recentTransactions,
  transactionDetails,
  validatedTransactions,
} from "./service.js";

const TxsQuery = Type.Object({
  filter: Type.Optional(Type.Union([Type.Literal("validated"), Type.Literal("pending")])),
  ...TRANSACTION_FILTER_QUERY,
  ...TX_CURSOR,
  ...PAGING,
});
const AddressTxsQuery = Type.Object({
  filter: Type.Optional(Type.Union([Type.Literal("to"), Type.Literal("from")])),
  ...ADDRESS_TX_SORT_QUERY,
  ...TX_CURSOR,
  ...PAGING,
});
const BlockTxsQuery = Type.Object({
  ...BLOCK_CURSOR,
  index: Type.Optional(Type.Integer({ minimum: 0, maximum: 2 ** 31 - 1 })),
  type: TRANSACTION_FILTER_QUERY.type,
  ...PAGING,
});
const page = answers(TransactionsPageSchema);

/**
 * /transactions, /transactions/{hash} and its raw-trace and summary; /addresses/{h}/transactions,
 * /blocks/{n}/transactions (unknown block: 404), /main-page/transactions.
 */
export const transactionRoutes: FastifyPluginAsyncTypebox<ResourceOptions> = async (app, opts) => {
  const { deps } = opts;
  const detailsDeps = { ...deps, ...(opts.tokenTransfers ? { tokenTransfers: opts.tokenTransfers } : {}) };
  const tags = ["transactions"];

  app.get("/transactions", { schema: { querystring: TxsQuery, tags, response: page } }, async (req) => {
    const q = req.query;
    // Lookout indexes blocks, not the mempool: there are no pending transactions to list.
    if (q.filter === "pending") return { items: [], next_page_params: null };
    return validatedTransactions(deps, txCursor(q), {
      types: transactionTypes(q.type),
      methods: methodSelectors(q.method),
    });
  });
  app.get(
    "/transactions/:transaction_hash_param",
    {
      schema: { params: TRANSACTION_PARAMS, tags, response: answers(TransactionSchema, { notFound: true }) },
    },
    async (req, reply) =>
      (await transactionDetails(detailsDeps, lower<Hex>(req.params.transaction_hash_param))) ??
      reply.code(404).send(NOT_FOUND),
  );
  app.get(
    "/transactions/:transaction_hash_param/raw-trace",
    { schema: { params: TRANSACTION_PARAMS, tags, response: answers(RawTraceSchema, { notFound: true }) } },
    async (req, reply) =>
      (await rawTrace(deps.db, lower<Hex>(req.params.transaction_hash_param))) ??
      reply.code(404).send(NOT_FOUND),
  );
  app.get(
    "/transactions/:transaction_hash_param/summary",
    // Always 403: Blockscout's answer when its transaction interpretation service is not configured; Lookout has none.
    {
      schema: {
        params: TRANSACTION_PARAMS,
        tags,
        response: {
          403: { ...NotFoundSchema, description: "Transaction Interpretation Service is disabled" },
          422: V2ErrorSchema,
        },
      },
    },
    async (_req, reply) =>
      reply.code(403).send({ message: "Transaction Interpretation Service is disabled" }),
  );
  app.get(
    "/addresses/:address_hash_param/transactions",
    {
      schema: {
        params: ADDRESS_PARAMS,
        querystring: AddressTxsQuery,
        tags: ["addresses"],
        response: answers(AddressTransactionsPageSchema),
      },
    },
    async (req) => {
      const sort = addressTxSort(req.query);
      return addressTransactions(
        deps,
        lower(req.params.address_hash_param),
        req.query.filter ?? null,
        sort,
        sortedTxCursor(req.query, sort),
      );
    },
  );
  app.get(
    "/blocks/:block_hash_or_number_param/transactions",
    {
      schema: {
        params: BLOCK_PARAMS,
        querystring: BlockTxsQuery,
        tags: ["blocks"],
        response: answers(TransactionsPageSchema, { notFound: true }),
      },
    },
    async (req, reply) => {
      const key = blockId(req.params.block_hash_or_number_param);
      const block =
        "number" in key ? await blockByNumber(deps.db, key.number) : await blockByHash(deps.db, key.hash);
      if (!block) return reply.code(404).send(NOT_FOUND);
      return blockTransactions(deps, block.number, req.query.index ?? null, transactionTypes(req.query.type));
    },
  );
  // Blockscout's home page shows the newest 6 transactions.
  app.get(
    "/main-page/transactions",
    { schema: { tags: ["main-page"], response: answers(TransactionListSchema) } },
    async () => recentTransactions(deps, 6),
  );
};
