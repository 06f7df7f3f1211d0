import { Type } from "@sinclair/typebox";
import type { FastifyPluginAsync } from "fastify";
import type { Address, Hex } from "viem";
import { addressCountersPage, addressTabsCounters } from "./address-counters/service.js";
import { type ExplorerRouteOptions, explorerDeps } from "./deps.js";
import { ADDRESS_HASH_PATTERN, FULL_HASH_PATTERN } from "./errors.js";
import { addressInternalTxs } from "./internal-transaction/service.js";
import { addressLogs } from "./log/service.js";
import { BLOCK_CURSOR, INDEX_CURSOR, PAGING, TOKEN_TYPES_QUERY, tokenTypes } from "./params.js";
import type { TokenType } from "./token-balance/query.js";
import { addressTokenBalances, addressTokens } from "./token-balance/service.js";
import { addressTokenTransfers } from "./token-transfer/service.js";
import { topAccounts } from "./top-account/service.js";
import { addressWithdrawals } from "./withdrawal/service.js";

const Params = Type.Object({ address_hash_param: Type.String({ pattern: ADDRESS_HASH_PATTERN }) });
const Direction = Type.Optional(Type.Union([Type.Literal("to"), Type.Literal("from")]));
const Int32 = Type.Optional(Type.Integer({ minimum: 0, maximum: 2 ** 31 - 1 }));
const TransfersQuery = Type.Object({
  filter: Direction,
  ...TOKEN_TYPES_QUERY,
  token: Type.Optional(Type.String({ pattern: ADDRESS_HASH_PATTERN })),
  ...BLOCK_CURSOR,
  ...INDEX_CURSOR,
  batch_index: Int32,
  ...PAGING,
});
const InternalQuery = Type.Object({
  filter: Direction,
  ...BLOCK_CURSOR,
  transaction_index: Int32,
  ...INDEX_CURSOR,
  ...PAGING,
});
const LogsQuery = Type.Object({
  topic: Type.Optional(Type.String({ pattern: FULL_HASH_PATTERN })),
  ...BLOCK_CURSOR,
  ...INDEX_CURSOR,
  transaction_index: Int32,
  ...PAGING,
});
const TokensQuery = Type.Object({
  ...TOKEN_TYPES_QUERY,
  value: Type.Optional(Type.String({ pattern: "^[0-9]{1,80}$" })),
  token_contract_address_hash: Type.Optional(Type.String({ pattern: ADDRESS_HASH_PATTERN })),
  token_id: Type.Optional(Type.String({ pattern: "^[0-9]{1,80}$" })),
  token_name: Type.Optional(Type.String()),
  token_type: Type.Optional(Type.String()),
  fiat_value: Type.Optional(Type.String()),
  ...PAGING,
});
const WithdrawalsQuery = Type.Object({
  index: Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER })),
  ...PAGING,
});
const TopAccountsQuery = Type.Object({
  fetched_coin_balance: Type.Optional(Type.String({ pattern: "^[0-9]{1,80}$" })),
  hash: Type.Optional(Type.String({ pattern: ADDRESS_HASH_PATTERN })),
  ...PAGING,
});

type Q = {
  filter?: "to" | "from";
  type?: string;
  token?: string;
  topic?: string;
  block_number?: number;
  index?: number;
  batch_index?: number;
  transaction_index?: number;
  value?: string;
  token_contract_address_hash?: string;
  token_id?: string;
};

/** Top accounts, and the address page's counters and tabs: counters, token transfers, internal transactions, logs, tokens, withdrawals. */
export const addressListRoutes: FastifyPluginAsync<ExplorerRouteOptions> = async (app, opts) => {
  const deps = explorerDeps(opts);
  const get = (path: string, querystring: object | null, handler: (a: Address, q: Q) => Promise<unknown>) =>
    app.get(
      `/addresses/:address_hash_param/${path}`,
      { schema: { params: Params, ...(querystring ? { querystring } : {}), tags: ["addresses"] } },
      async (req) =>
        handler(
          (req.params as { address_hash_param: string }).address_hash_param.toLowerCase() as Address,
          req.query as Q,
        ),
    );
  // Top accounts; the frontend asks for `/addresses/` (the router ignores the trailing slash).
  app.get("/addresses", { schema: { querystring: TopAccountsQuery, tags: ["addresses"] } }, async (req) => {
    const q = req.query as { fetched_coin_balance?: string; hash?: string };
    return topAccounts(
      deps,
      q.fetched_coin_balance !== undefined && q.hash
        ? { balance: q.fetched_coin_balance, hash: q.hash.toLowerCase() as Address }
        : null,
    );
  });
  const both = (q: Q) => q.block_number !== undefined && q.index !== undefined;

  get("counters", null, (a) => addressCountersPage(deps.db, a));
  get("tabs-counters", null, (a) => addressTabsCounters(deps.db, a));
  get("token-transfers", TransfersQuery, (a, q) =>
    addressTokenTransfers(
      deps,
      a,
      {
        direction: q.filter ?? null,
        types: tokenTypes(q.type),
        token: (q.token?.toLowerCase() as Address | undefined) ?? null,
      },
      both(q) ? { blockNumber: q.block_number!, logIndex: q.index!, batchIndex: q.batch_index ?? 0 } : null,
    ),
  );
  get("internal-transactions", InternalQuery, (a, q) =>
    addressInternalTxs(
      deps,
      a,
      q.filter ?? null,
      both(q) && q.transaction_index !== undefined
        ? { blockNumber: q.block_number!, transactionIndex: q.transaction_index, index: q.index! }
        : null,
    ),
  );
  get("logs", LogsQuery, (a, q) =>
    addressLogs(
      deps,
      a,
      (q.topic?.toLowerCase() as Hex | undefined) ?? null,
      both(q) ? { blockNumber: q.block_number!, index: q.index! } : null,
    ),
  );
  get("tokens", TokensQuery, (a, q) =>
    addressTokens(
      deps,
      a,
      tokenTypes<TokenType>(q.type),
      q.value !== undefined && q.token_contract_address_hash
        ? { value: q.value, tokenAddress: q.token_contract_address_hash, tokenId: q.token_id ?? null }
        : null,
    ),
  );
  get("token-balances", null, (a) => addressTokenBalances(deps, a));
  get("withdrawals", WithdrawalsQuery, (a, q) =>
    addressWithdrawals(deps, a, q.index === undefined ? null : BigInt(q.index)),
  );
};
