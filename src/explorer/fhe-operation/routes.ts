import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { Hex } from "viem";
import type { ResourceOptions } from "../deps.js";
import { answers, NOT_FOUND } from "../errors.js";
import { lower, TRANSACTION_PARAMS } from "../params.js";
import { FheOperationsSchema } from "./schema.js";
import { fheOperations } from "./service.js";

/** /transactions/{h}/fhe-operations: served on every chain, as Blockscout's router does. */
export const fheOperationRoutes: FastifyPluginAsyncTypebox<ResourceOptions> = async (app, { deps }) => {
  app.get(
    "/transactions/:transaction_hash_param/fhe-operations",
    {
      schema: {
        params: TRANSACTION_PARAMS,
        tags: ["transactions"],
        response: answers(FheOperationsSchema, { notFound: true }),
      },
    },
    async (req, reply) =>
      (await fheOperations(deps.db, lower<Hex>(req.params.transaction_hash_param))) ??
      reply.code(404).send(NOT_FOUND),
  );
};
