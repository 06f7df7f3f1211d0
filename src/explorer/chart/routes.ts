import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { ResourceOptions } from "../deps.js";
import { answers } from "../errors.js";
import { MarketChartSchema, TransactionsChartSchema } from "./schema.js";
import { marketChart, transactionsChart } from "./service.js";

/** /stats/charts/transactions and /stats/charts/market (the home page's charts). */
export const chartRoutes: FastifyPluginAsyncTypebox<ResourceOptions> = async (app, { deps }) => {
  app.get(
    "/stats/charts/transactions",
    { schema: { tags: ["stats"], response: answers(TransactionsChartSchema) } },
    async () => transactionsChart(deps),
  );
  app.get(
    "/stats/charts/market",
    { schema: { tags: ["stats"], response: answers(MarketChartSchema) } },
    async () => marketChart(),
  );
};
