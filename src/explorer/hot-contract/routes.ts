import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "@sinclair/typebox";
import type { ResourceOptions } from "../deps.js";
import { ADDRESS_HASH_PATTERN, answers } from "../errors.js";
import { lower, PAGING } from "../params.js";
import { SCALES } from "./query.js";
import { HotContractsResponseSchema } from "./schema.js";
import { hotContracts } from "./service.js";

const HotContractsQuery = Type.Object({
  scale: Type.Union(
    Object.keys(SCALES).map((s) => Type.Literal(s as keyof typeof SCALES)),
    { description: "The window up to now: 5m, 1h, 3h (minutes), 1d, 7d, 30d (today and the days before)" },
  ),
  sort: Type.Optional(Type.Union([Type.Literal("transactions_count"), Type.Literal("total_gas_used")])),
  order: Type.Optional(Type.Union([Type.Literal("asc"), Type.Literal("desc")])),
  contract_address_hash: Type.Optional(Type.String({ pattern: ADDRESS_HASH_PATTERN })),
  transactions_count: Type.Optional(Type.String({ pattern: "^[0-9]{1,18}$" })),
  total_gas_used: Type.Optional(Type.String({ pattern: "^[0-9]{1,80}$" })),
  ...PAGING,
});

/** Blockscout's hot smart contracts (its StatsController), from the hot-contracts stage's slots. */
export const hotContractRoutes: FastifyPluginAsyncTypebox<ResourceOptions> = async (app, { deps }) => {
  app.get(
    "/stats/hot-smart-contracts",
    {
      schema: {
        querystring: HotContractsQuery,
        tags: ["stats"],
        response: answers(HotContractsResponseSchema),
      },
    },
    async (req) => {
      const q = req.query;
      return hotContracts(
        deps,
        q.scale,
        // Blockscout's hot_smart_contracts_sorting: both `sort` and `order`, or the default order.
        q.sort && q.order ? { by: q.sort, order: q.order } : null,
        q.contract_address_hash && q.transactions_count !== undefined && q.total_gas_used !== undefined
          ? {
              address: lower(q.contract_address_hash),
              transactions: q.transactions_count,
              gasUsed: q.total_gas_used,
            }
          : null,
      );
    },
  );
};
