import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "@sinclair/typebox";
import type { ResourceOptions } from "../deps.js";
import { V2ErrorSchema } from "../errors.js";
import { BlockCountdownSchema, COUNTDOWN_PARAMS, CountdownMessageSchema } from "./schema.js";
import { blockCountdown } from "./service.js";

/** /blocks/{n}/countdown: blocks and time left until a future block. */
export const blockCountdownRoutes: FastifyPluginAsyncTypebox<ResourceOptions> = async (app, { deps }) => {
  app.get(
    "/blocks/:block_number_param/countdown",
    {
      schema: {
        params: COUNTDOWN_PARAMS,
        tags: ["blocks"],
        response: {
          200: BlockCountdownSchema,
          404: { ...CountdownMessageSchema, description: "Block number already mined" },
          422: Type.Union([V2ErrorSchema, CountdownMessageSchema], {
            description: "Invalid block number, or no head or block time known yet",
          }),
        },
      },
    },
    async (req, reply) => {
      const a = await blockCountdown(deps.db, req.params.block_number_param);
      return "ok" in a ? a.ok : reply.code(a.status).send({ message: a.message });
    },
  );
};
