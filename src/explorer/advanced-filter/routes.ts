import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { CSV_RESPONSE, sendCsv } from "../../http/csv.js";
import type { ResourceOptions } from "../deps.js";
import { answers, V2ErrorSchema } from "../errors.js";
import {
  AdvancedFilterMethodsSchema,
  AdvancedFilterQuery,
  AdvancedFilterResponseSchema,
  MethodsQuery,
} from "./schema.js";
import { advancedFilters, advancedFiltersCsv, searchMethods } from "./service.js";

/**
 * `/advanced-filters` (transactions, internal transactions and token transfers under the frontend's filters),
 * `/advanced-filters/csv` (the same list as CSV; Blockscout's reCAPTCHA is not asked for) and
 * `/advanced-filters/methods` (the method picker's search).
 */
export const advancedFilterRoutes: FastifyPluginAsyncTypebox<ResourceOptions> = async (app, { deps }) => {
  const tags = ["advanced-filters"];
  app.get(
    "/advanced-filters",
    { schema: { querystring: AdvancedFilterQuery, tags, response: answers(AdvancedFilterResponseSchema) } },
    async (req) => advancedFilters(deps, req.query),
  );
  app.get(
    "/advanced-filters/csv",
    {
      schema: {
        querystring: AdvancedFilterQuery,
        tags,
        response: { 200: CSV_RESPONSE, 422: V2ErrorSchema },
      },
    },
    async (req, reply) => sendCsv(reply, advancedFiltersCsv(deps, req.query)),
  );
  app.get(
    "/advanced-filters/methods",
    { schema: { querystring: MethodsQuery, tags, response: answers(AdvancedFilterMethodsSchema) } },
    async (req) => searchMethods(deps, req.query.q),
  );
};
