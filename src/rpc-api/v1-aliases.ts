import { Type } from "@sinclair/typebox";
import type { FastifyPluginAsync } from "fastify";
import { answers } from "../explorer/errors.js";
import { SearchResultSchema } from "../explorer/search/schema.js";
import { gasPrices } from "../explorer/stats/service.js";
import { Params } from "../http/etherscan-params.js";
import { verifiedSmartContractsV1 } from "../verifier-apis/etherscan/publish-actions.js";
import type { RpcApiDeps } from "./reply.js";

const Nullable = (t: ReturnType<typeof Type.Number>) => Type.Union([t, Type.Null()]);
const GasPricesSchema = Type.Object({
  slow: Nullable(Type.Number()),
  average: Nullable(Type.Number()),
  fast: Nullable(Type.Number()),
});

/**
 * Blockscout's `/api/v1` paths that are not the proxy verifier's (`/api/v1/{solidity,vyper,…}`): `/search` (its v2
 * search kept for older clients), `/gas-price-oracle`, `/supply` and `POST /verified_smart_contracts` (with a
 * verifier). `GET|POST /api/v1?module=…` and
 * `POST /api/v1/eth-rpc` are the `/api` and `/api/eth-rpc` routes' second paths (plugin.ts, eth-rpc/plugin.ts).
 */
export const apiV1AliasesPlugin: FastifyPluginAsync<{ deps: RpcApiDeps }> = async (app, { deps }) => {
  const tags = ["api-v1-aliases"];
  // The response schemas document the answers; they never filter them.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  // The same answer as /api/v2/search, status and body (its paging, its 422s): Blockscout routes both to one action.
  app.get(
    "/api/v1/search",
    {
      schema: {
        tags,
        summary: "Blockscout's /api/v1 alias of /api/v2/search (same answer)",
        response: answers(SearchResultSchema),
      },
    },
    async (req, reply) => {
      const query = req.url.includes("?") ? req.url.slice(req.url.indexOf("?")) : "";
      const r = await app.inject({ method: "GET", url: `/api/v2/search${query}` });
      return reply.code(r.statusCode).type("application/json; charset=utf-8").send(r.body);
    },
  );
  // GasPriceOracleController: the oracle's three prices in gwei; 500 with nulls while it has none.
  app.get(
    "/api/v1/gas-price-oracle",
    {
      schema: {
        tags,
        summary: "The gas price oracle's slow, average and fast prices (gwei)",
        response: {
          200: GasPricesSchema,
          500: { ...GasPricesSchema, description: "The oracle has no prices yet (every member null)" },
        },
      },
    },
    async (_req, reply) => {
      const { prices } = await gasPrices(deps.db);
      const body = {
        slow: prices.slow?.price ?? null,
        average: prices.average?.price ?? null,
        fast: prices.fast?.price ?? null,
      };
      const none = body.slow === null && body.average === null && body.fast === null;
      return reply.code(none ? 500 : 200).send(body);
    },
  );
  // SupplyController: Chain.total_supply() and circulating_supply() of the market source's supply module; without
  // a market source (Lookout has none) 0 and null, as Blockscout answers.
  app.get(
    "/api/v1/supply",
    {
      schema: {
        tags,
        summary: "The coin's total and circulating supply from a market source (0 and null: none here)",
        response: {
          200: Type.Object({ total_supply: Type.Number(), circulating_supply: Nullable(Type.Number()) }),
        },
      },
    },
    async () => ({ total_supply: 0, circulating_supply: null }),
  );
  const api = deps.verification;
  if (api)
    // V1.VerifiedSmartContractController: one flattened Solidity file, verified before the answer.
    app.post(
      "/api/v1/verified_smart_contracts",
      {
        schema: {
          tags,
          summary: "Verify one flattened Solidity file (Blockscout's `verify` fields in snake case)",
          response: {
            201: Type.Object({ status: Type.Literal("success") }),
            422: Type.Record(Type.String(), Type.String(), {
              description: '{"error": …}, or the failing field and why (e.g. contract_source_code)',
            }),
          },
        },
      },
      async (req, reply) => {
        const r = await verifiedSmartContractsV1(api, new Params(req.query, req.body));
        return reply.code(r.httpStatus).send(r.body);
      },
    );
};
