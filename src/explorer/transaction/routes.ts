import { Type } from "@sinclair/typebox";
import type { FastifyPluginAsync } from "fastify";
import type { Address, Hex } from "viem";
import { type ExplorerRouteOptions, explorerDeps } from "../deps.js";
import { ADDRESS_HASH_PATTERN, FULL_HASH_PATTERN, NOT_FOUND } from "../errors.js";
import { PAGING, TX_CURSOR, txCursor } from "../params.js";
import { stateChangesPage, transactionStateChanges } from "../state-change/service.js";
import { transactionsStats } from "../stats/service.js";
import { rawTrace } from "./raw-trace.js";
import {
  addressTransactions,
  type TokenTransfersOfTransaction,
  transactionDetails,
  validatedTransactions,
} from "./service.js";

const TxParams = Type.Object({ transaction_hash_param: Type.String({ pattern: FULL_HASH_PATTERN }) });
const AddressParams = Type.Object({ address_hash_param: Type.String({ pattern: ADDRESS_HASH_PATTERN }) });
const TxsQuery = Type.Object({
  filter: Type.Optional(Type.Union([Type.Literal("validated"), Type.Literal("pending")])),
  type: Type.Optional(Type.String()),
  method: Type.Optional(Type.String()),
  ...TX_CURSOR,
  ...PAGING,
});
// Blockscout pages state changes by an offset in items_count (one transaction's changes, bounded).
const StateChangesQuery = Type.Object({
  ...PAGING,
  items_count: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000 })),
  state_changes: Type.Optional(Type.String()),
});
const AddressTxsQuery = Type.Object({
  filter: Type.Optional(Type.Union([Type.Literal("to"), Type.Literal("from")])),
  ...TX_CURSOR,
  ...PAGING,
});

type TxsQueryT = { filter?: string; block_number?: number; index?: number };

export type TransactionRouteOptions = ExplorerRouteOptions & {
  /** The token-transfer preview of a transaction's details (the token-transfer views live with their resource). */
  tokenTransfers?: TokenTransfersOfTransaction;
};

/** /transactions, /transactions/stats, /transactions/{hash} and its raw-trace, state-changes, summary; /addresses/{h}/transactions. */
export const transactionRoutes: FastifyPluginAsync<TransactionRouteOptions> = async (app, opts) => {
  const deps = {
    ...explorerDeps(opts),
    ...(opts.tokenTransfers ? { tokenTransfers: opts.tokenTransfers } : {}),
  };
  const hashOf = (req: { params: unknown }) =>
    (req.params as { transaction_hash_param: string }).transaction_hash_param.toLowerCase() as Hex;

  app.get("/transactions", { schema: { querystring: TxsQuery, tags: ["transactions"] } }, async (req) => {
    const q = req.query as TxsQueryT;
    // Lookout indexes blocks, not the mempool: there are no pending transactions to list.
    if (q.filter === "pending") return { items: [], next_page_params: null };
    return validatedTransactions(deps, txCursor(q), q.filter);
  });
  app.get("/transactions/stats", { schema: { tags: ["transactions"] } }, async () =>
    transactionsStats(deps.db),
  );
  app.get(
    "/transactions/:transaction_hash_param",
    { schema: { params: TxParams, tags: ["transactions"] } },
    async (req, reply) => (await transactionDetails(deps, hashOf(req))) ?? reply.code(404).send(NOT_FOUND),
  );
  app.get(
    "/transactions/:transaction_hash_param/raw-trace",
    { schema: { params: TxParams, tags: ["transactions"] } },
    async (req, reply) => (await rawTrace(deps.db, hashOf(req))) ?? reply.code(404).send(NOT_FOUND),
  );
  app.get(
    "/transactions/:transaction_hash_param/state-changes",
    { schema: { params: TxParams, querystring: StateChangesQuery, tags: ["transactions"] } },
    async (req, reply) => {
      const all = await transactionStateChanges(deps, hashOf(req));
      if (!all) return reply.code(404).send(NOT_FOUND);
      return stateChangesPage(all, (req.query as { items_count?: number }).items_count ?? 0);
    },
  );
  app.get(
    "/transactions/:transaction_hash_param/summary",
    { schema: { params: TxParams, tags: ["transactions"] } },
    // Blockscout's answer when its transaction interpretation service is not configured; Lookout has none.
    async (_req, reply) =>
      reply.code(403).send({ message: "Transaction Interpretation Service is disabled" }),
  );
  app.get(
    "/addresses/:address_hash_param/transactions",
    { schema: { params: AddressParams, querystring: AddressTxsQuery, tags: ["addresses"] } },
    async (req) => {
      const { address_hash_param } = req.params as { address_hash_param: string };
      const q = req.query as TxsQueryT & { filter?: "to" | "from" };
      return addressTransactions(
        deps,
        address_hash_param.toLowerCase() as Address,
        q.filter ?? null,
        txCursor(q),
      );
    },
  );
};
