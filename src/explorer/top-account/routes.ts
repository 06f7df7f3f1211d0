import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "@sinclair/typebox";
import type { ResourceOptions } from "../deps.js";
import { ADDRESS_HASH_PATTERN, answers } from "../errors.js";
import { lower, PAGING } from "../params.js";
import { TopAccountsResponseSchema } from "./schema.js";
import { topAccounts } from "./service.js";

const TopAccountsQuery = Type.Object({
  sort: Type.Optional(
    Type.Union([Type.Literal("balance"), Type.Literal("transactions_count")], {
      description: "Sort key (with `order`; without both, balance descending)",
    }),
  ),
  order: Type.Optional(Type.Union([Type.Literal("asc"), Type.Literal("desc")])),
  fetched_coin_balance: Type.Optional(Type.String({ pattern: "^[0-9]{1,80}$" })),
  hash: Type.Optional(Type.String({ pattern: ADDRESS_HASH_PATTERN })),
  transactions_count: Type.Optional(Type.String({ pattern: "^[0-9]{1,18}$" })),
  ...PAGING,
});

/** Top accounts; the frontend asks for `/addresses/` (the router ignores the trailing slash). */
export const topAccountRoutes: FastifyPluginAsyncTypebox<ResourceOptions> = async (app, { deps }) => {
  app.get(
    "/addresses",
    {
      schema: {
        querystring: TopAccountsQuery,
        tags: ["addresses"],
        response: answers(TopAccountsResponseSchema),
      },
    },
    async (req) => {
      const q = req.query;
      // Blockscout's addresses_sorting: both `sort` and `order`, or the default order.
      return topAccounts(
        deps,
        q.sort && q.order ? { by: q.sort, order: q.order } : null,
        q.fetched_coin_balance !== undefined && q.hash
          ? {
              balance: q.fetched_coin_balance,
              hash: lower(q.hash),
              transactionsCount: q.transactions_count ?? null,
            }
          : null,
      );
    },
  );
};
