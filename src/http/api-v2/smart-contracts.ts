import { Type } from "@sinclair/typebox";
import type { FastifyPluginAsync } from "fastify";
import type { Db } from "../../db/db.js";
import type { VerifiedContractLookup } from "../../explorer/address/query.js";
import {
  type ContractsFilter,
  contractsCounters,
  contractsPage,
} from "../../explorer/smart-contract/list.js";
import { smartContract } from "../../explorer/smart-contract/service.js";
import { indexedChainId } from "../../explorer/transaction/query.js";
import { ADDRESS_HASH_PATTERN } from "./errors.js";

const Params = Type.Object({ address_hash_param: Type.String({ pattern: ADDRESS_HASH_PATTERN }) });
const ListQuery = Type.Object({
  q: Type.Optional(Type.String({ maxLength: 256 })),
  filter: Type.Optional(Type.Union([Type.Literal("solidity"), Type.Literal("vyper"), Type.Literal("yul")])),
  // Bounded: a larger id is no row's, and PostgreSQL's bigint could not hold it (a 500 before).
  smart_contract_id: Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER })),
  items_count: Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER })),
});

/**
 * GET /smart-contracts/{h}: the contract tab of the frontend: verified source, ABI, compiler, settings, match type
 * and constructor arguments from our verified-contract store; code only for an unverified contract we indexed.
 */
export const smartContractRoutes: FastifyPluginAsync<{ db: Db; verified?: VerifiedContractLookup }> = async (
  app,
  { db, verified },
) => {
  const addressDeps = verified ? { verified } : {};
  app.get(
    "/smart-contracts",
    { schema: { querystring: ListQuery, tags: ["smart-contracts"] } },
    async (req) => {
      const q = req.query as { q?: string; filter?: ContractsFilter; smart_contract_id?: number };
      const chainId = await indexedChainId(db);
      if (chainId === null) return { items: [], next_page_params: null };
      return contractsPage(
        db,
        chainId,
        { q: q.q, filter: q.filter, before: q.smart_contract_id },
        addressDeps,
      );
    },
  );
  app.get("/smart-contracts/counters", { schema: { tags: ["smart-contracts"] } }, async () => {
    const chainId = await indexedChainId(db);
    return contractsCounters(db, chainId ?? "0");
  });

  app.get(
    "/smart-contracts/:address_hash_param",
    { schema: { params: Params, tags: ["smart-contracts"] } },
    async (req, reply) => {
      const address = (req.params as { address_hash_param: string }).address_hash_param.toLowerCase();
      return (await smartContract(db, address, verified)) ?? reply.code(404).send({ message: "Not found" });
    },
  );
};
