import { Type } from "@sinclair/typebox";
import type { FastifyPluginAsync } from "fastify";
import { fromBytea, fromByteaOrNull, toBytea } from "../../db/bytes.js";
import type { Db } from "../../db/db.js";
import { smartContractView, unverifiedContractView } from "../../explorer/smart-contract/view.js";
import { getVerifiedContract } from "../../verifier/store/index.js";
import { ADDRESS_HASH_PATTERN } from "./errors.js";

const Params = Type.Object({ address_hash_param: Type.String({ pattern: ADDRESS_HASH_PATTERN }) });

/**
 * GET /smart-contracts/{h}: the contract tab of the frontend: verified source, ABI, compiler, settings, match type
 * and constructor arguments from our verified-contract store; code only for an unverified contract we indexed.
 */
export const smartContractRoutes: FastifyPluginAsync<{ db: Db }> = async (app, { db }) => {
  app.get(
    "/smart-contracts/:address_hash_param",
    { schema: { params: Params, tags: ["smart-contracts"] } },
    async (req, reply) => {
      const address = (req.params as { address_hash_param: string }).address_hash_param.toLowerCase();
      const [state] = await db.query<{ chain_id: number }>("select chain_id from indexer_state where id = 1");
      if (state) {
        const record = await getVerifiedContract(db, String(state.chain_id), address);
        if (record) return smartContractView(record);
      }
      const [created] = await db.query<{ init_code: Uint8Array; runtime_code: Uint8Array | null }>(
        "select init_code, runtime_code from contract_creations where address = $1 order by block_number desc limit 1",
        [toBytea(address)],
      );
      if (!created) return reply.code(404).send({ message: "Not found" });
      return unverifiedContractView(fromByteaOrNull(created.runtime_code), fromBytea(created.init_code));
    },
  );
};
