import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { Hex } from "viem";
import type { ResourceOptions } from "../deps.js";
import { answers, NOT_FOUND } from "../errors.js";
import { lower, TRANSACTION_PARAMS } from "../params.js";
import { PreviewQuery, TransactionPreviewSchema } from "./schema.js";
import { transactionPreview } from "./service.js";

/** /transactions/{h}/preview: the lightweight view for link previews (TransactionController.preview). */
export const transactionPreviewRoutes: FastifyPluginAsyncTypebox<ResourceOptions> = async (app, { deps }) => {
  app.get(
    "/transactions/:transaction_hash_param/preview",
    {
      schema: {
        params: TRANSACTION_PARAMS,
        querystring: PreviewQuery,
        tags: ["transactions"],
        response: answers(TransactionPreviewSchema, { notFound: true }),
      },
    },
    async (req, reply) =>
      (await transactionPreview(deps, lower<Hex>(req.params.transaction_hash_param), {
        decodeInput: req.query.decode_input === true,
        preloadMetadata: req.query.preload_metadata === true,
      })) ?? reply.code(404).send(NOT_FOUND),
  );
};
