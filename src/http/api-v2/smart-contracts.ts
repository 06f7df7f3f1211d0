import { Type } from "@sinclair/typebox";
import type { FastifyPluginAsync } from "fastify";
import type { Hex } from "viem";
import { fromBytea, fromByteaOrNull, toBytea } from "../../db/bytes.js";
import type { Db } from "../../db/db.js";
import type { VerifiedContractLookup } from "../../explorer/address/loader.js";
import { abiMethodFlags, contractFacts } from "../../explorer/smart-contract/details.js";
import {
  type ContractsFilter,
  contractsCounters,
  contractsPage,
} from "../../explorer/smart-contract/list.js";
import { smartContractView, unverifiedContractView } from "../../explorer/smart-contract/view.js";
import { getVerifiedContract } from "../../verifier/store/index.js";
import { ADDRESS_HASH_PATTERN } from "./errors.js";

const Params = Type.Object({ address_hash_param: Type.String({ pattern: ADDRESS_HASH_PATTERN }) });
const ListQuery = Type.Object({
  q: Type.Optional(Type.String({ maxLength: 256 })),
  filter: Type.Optional(Type.Union([Type.Literal("solidity"), Type.Literal("vyper"), Type.Literal("yul")])),
  smart_contract_id: Type.Optional(Type.Integer({ minimum: 0 })),
  items_count: Type.Optional(Type.Integer({ minimum: 0 })),
});

async function indexedChainId(db: Db): Promise<string | null> {
  const [state] = await db.query<{ chain_id: number }>("select chain_id from indexer_state where id = 1");
  return state ? String(state.chain_id) : null;
}

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
      const chainId = await indexedChainId(db);
      if (chainId !== null) {
        const record = await getVerifiedContract(db, chainId, address);
        if (record) {
          const view = smartContractView(record);
          const facts = await contractFacts(db, chainId, address as Hex, verified, record.onchainRuntimeCode);
          return { ...view, ...facts, ...abiMethodFlags(view.abi) };
        }
      }
      const [created] = await db.query<{ init_code: Uint8Array; runtime_code: Uint8Array | null }>(
        "select init_code, runtime_code from contract_creations where address = $1 order by block_number desc limit 1",
        [toBytea(address)],
      );
      if (!created) return reply.code(404).send({ message: "Not found" });
      const runtime = fromByteaOrNull(created.runtime_code);
      const facts = await contractFacts(db, chainId ?? "0", address as Hex, verified, runtime);
      return {
        ...unverifiedContractView(runtime, fromBytea(created.init_code)),
        ...facts,
        ...abiMethodFlags(null),
      };
    },
  );
};
