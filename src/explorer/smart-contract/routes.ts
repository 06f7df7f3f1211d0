import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "@sinclair/typebox";
import type { ResourceOptions } from "../deps.js";
import { answers, NOT_FOUND } from "../errors.js";
import { indexedChainId } from "../objects/verified-store.js";
import { ADDRESS_PARAMS, lower } from "../params.js";
import { SmartContractSchema, SmartContractsCountersSchema, SmartContractsPageSchema } from "./schema.js";
import { contractsCounters, contractsPage, smartContract } from "./service.js";

const ListQuery = Type.Object({
  q: Type.Optional(Type.String({ maxLength: 256 })),
  filter: Type.Optional(Type.Union([Type.Literal("solidity"), Type.Literal("vyper"), Type.Literal("yul")])),
  // Bounded: a larger id is no row's, and PostgreSQL's bigint could not hold it (a 500 before).
  smart_contract_id: Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER })),
  items_count: Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER })),
});

/**
 * /smart-contracts (verified contracts, newest first), its counters, and GET /smart-contracts/{h}: the contract tab
 * of the frontend: verified source, ABI, compiler, settings, match type and constructor arguments from our
 * verified-contract store; code only for an unverified contract we indexed.
 */
export const smartContractRoutes: FastifyPluginAsyncTypebox<ResourceOptions> = async (app, { deps }) => {
  const tags = ["smart-contracts"];
  app.get(
    "/smart-contracts",
    { schema: { querystring: ListQuery, tags, response: answers(SmartContractsPageSchema) } },
    async (req) => {
      const q = req.query;
      const chainId = await indexedChainId(deps.db);
      if (chainId === null) return { items: [], next_page_params: null };
      // The address objects carry public tags, as on every other page (Blockscout's AddressView everywhere).
      return contractsPage(deps.db, chainId, { q: q.q, filter: q.filter, before: q.smart_contract_id }, deps);
    },
  );
  app.get(
    "/smart-contracts/counters",
    { schema: { tags, response: answers(SmartContractsCountersSchema) } },
    async () => contractsCounters(deps.db, (await indexedChainId(deps.db)) ?? "0"),
  );
  app.get(
    "/smart-contracts/:address_hash_param",
    { schema: { params: ADDRESS_PARAMS, tags, response: answers(SmartContractSchema, { notFound: true }) } },
    async (req, reply) =>
      (await smartContract(deps.db, lower(req.params.address_hash_param), deps.verified)) ??
      reply.code(404).send(NOT_FOUND),
  );
};
