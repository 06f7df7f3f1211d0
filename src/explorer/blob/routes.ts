import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "@sinclair/typebox";
import type { Hex } from "viem";
import type { ResourceOptions } from "../deps.js";
import { answers, NOT_FOUND } from "../errors.js";
import { lower, TRANSACTION_PARAMS } from "../params.js";
import { BlobSchema, TxBlobsSchema } from "./schema.js";
import { blobDetails, blobsOfTransaction } from "./service.js";

const BLOB_PARAMS = Type.Object({ blob_hash_param: Type.String({ pattern: "^0x[0-9a-fA-F]{64}$" }) });

/** /transactions/{h}/blobs and /blobs/{hash} (EIP-4844): blob data null unless BEACON_NODE_URL is set. */
export const blobRoutes: FastifyPluginAsyncTypebox<ResourceOptions> = async (app, { deps }) => {
  app.get(
    "/transactions/:transaction_hash_param/blobs",
    {
      schema: {
        params: TRANSACTION_PARAMS,
        tags: ["transactions"],
        response: answers(TxBlobsSchema, { notFound: true }),
      },
    },
    async (req, reply) =>
      (await blobsOfTransaction(deps.db, lower<Hex>(req.params.transaction_hash_param))) ??
      reply.code(404).send(NOT_FOUND),
  );
  app.get(
    "/blobs/:blob_hash_param",
    { schema: { params: BLOB_PARAMS, tags: ["blobs"], response: answers(BlobSchema, { notFound: true }) } },
    async (req, reply) =>
      (await blobDetails(deps.db, lower<Hex>(req.params.blob_hash_param))) ?? reply.code(404).send(NOT_FOUND),
  );
};
