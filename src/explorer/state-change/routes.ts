import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "@sinclair/typebox";
import type { Hex } from "viem";
import type { ResourceOptions } from "../deps.js";
import { answers, NOT_FOUND } from "../errors.js";
import { lower, PAGING, TRANSACTION_PARAMS } from "../params.js";
import { StateChangesSchema } from "./schema.js";
import { stateChangesPage, transactionStateChanges } from "./service.js";

// Blockscout pages state changes by an offset in items_count (one transaction's changes, bounded).
const StateChangesQuery = Type.Object({
  ...PAGING,
  items_count: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000 })),
  state_changes: Type.Optional(Type.String()),
});

/** /transactions/{h}/state-changes (unknown transaction: 404). */
export const stateChangeRoutes: FastifyPluginAsyncTypebox<ResourceOptions> = async (app, { deps }) => {
  app.get(
    "/transactions/:transaction_hash_param/state-changes",
    {
      schema: {
        params: TRANSACTION_PARAMS,
        querystring: StateChangesQuery,
        tags: ["transactions"],
        response: answers(StateChangesSchema, { notFound: true }),
      },
    },
    async (req, reply) => {
      const all = await transactionStateChanges(deps, lower<Hex>(req.params.transaction_hash_param));
      if (!all) return reply.code(404).send(NOT_FOUND);
      return stateChangesPage(all, req.query.items_count ?? 0);
    },
  );
};
