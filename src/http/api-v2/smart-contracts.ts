import { Type } from "@sinclair/typebox";
import type { FastifyPluginAsync } from "fastify";
import type { Db } from "../../db/db.js";
import { smartContract } from "../../explorer/smart-contract/service.js";
import { ADDRESS_HASH_PATTERN } from "./errors.js";

const Params = Type.Object({ address_hash_param: Type.String({ pattern: ADDRESS_HASH_PATTERN }) });

/** GET /smart-contracts/{h}: the contract tab of the frontend (404 for an address we know no code of). */
export const smartContractRoutes: FastifyPluginAsync<{ db: Db }> = async (app, { db }) => {
  app.get(
    "/smart-contracts/:address_hash_param",
    { schema: { params: Params, tags: ["smart-contracts"] } },
    async (req, reply) => {
      const address = (req.params as { address_hash_param: string }).address_hash_param.toLowerCase();
      return (await smartContract(db, address)) ?? reply.code(404).send({ message: "Not found" });
    },
  );
};
