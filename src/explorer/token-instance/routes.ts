import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "@sinclair/typebox";
import type { ResourceOptions } from "../deps.js";
import { answers, NOT_FOUND } from "../errors.js";
import { ADDRESS_PARAMS, lower, PAGING, TOKEN_INSTANCE_PARAMS } from "../params.js";
import { tokenType } from "../token/query.js";
import { instanceTransfersCount, requestMetadataRefetch } from "./query.js";
import {
  FrontendTokenInstance,
  FrontendTokenInstanceTransfersCount,
  FrontendTokenInventory,
  RefetchSchema,
} from "./schema.js";
import { tokenInstance, tokenInstances } from "./service.js";

const InstancesQuery = Type.Object({
  ...PAGING,
  unique_token: Type.Optional(Type.String({ pattern: "^[0-9]{1,78}$" })),
});

/**
 * A token's instances: /tokens/{h}/instances (inventory), /tokens/{h}/instances/{id}, its transfers-count and the
 * PATCH refetch-metadata. An unknown token, an ERC-20 or an unknown id: 404.
 */
export const tokenInstanceRoutes: FastifyPluginAsyncTypebox<ResourceOptions> = async (app, { deps }) => {
  const tags = ["tokens"];
  app.get(
    "/tokens/:address_hash_param/instances",
    {
      schema: {
        params: ADDRESS_PARAMS,
        querystring: InstancesQuery,
        tags,
        response: answers(FrontendTokenInventory, { notFound: true }),
      },
    },
    async (req, reply) => {
      const { unique_token } = req.query;
      const page = await tokenInstances(
        deps.db,
        lower(req.params.address_hash_param),
        unique_token === undefined ? null : BigInt(unique_token),
        deps,
      );
      return page ?? reply.code(404).send(NOT_FOUND);
    },
  );
  app.get(
    "/tokens/:address_hash_param/instances/:token_id_param",
    {
      schema: {
        params: TOKEN_INSTANCE_PARAMS,
        tags,
        response: answers(FrontendTokenInstance, { notFound: true }),
      },
    },
    async (req, reply) => {
      const { address_hash_param, token_id_param } = req.params;
      const instance = await tokenInstance(deps.db, lower(address_hash_param), BigInt(token_id_param), deps);
      return instance ?? reply.code(404).send(NOT_FOUND);
    },
  );
  app.get(
    "/tokens/:address_hash_param/instances/:token_id_param/transfers-count",
    {
      schema: {
        params: TOKEN_INSTANCE_PARAMS,
        tags,
        response: answers(FrontendTokenInstanceTransfersCount, { notFound: true }),
      },
    },
    async (req, reply) => {
      const { address_hash_param, token_id_param } = req.params;
      const type = await tokenType(deps.db, lower(address_hash_param));
      if (type === null || type === "ERC-20") return reply.code(404).send(NOT_FOUND);
      return {
        transfers_count: await instanceTransfersCount(
          deps.db,
          lower(address_hash_param),
          BigInt(token_id_param),
        ),
      };
    },
  );
  app.patch(
    "/tokens/:address_hash_param/instances/:token_id_param/refetch-metadata",
    { schema: { params: TOKEN_INSTANCE_PARAMS, tags, response: answers(RefetchSchema, { notFound: true }) } },
    async (req, reply) => {
      const { address_hash_param, token_id_param } = req.params;
      const ok = await requestMetadataRefetch(deps.db, lower(address_hash_param), BigInt(token_id_param));
      return ok ? { message: "OK" } : reply.code(404).send(NOT_FOUND);
    },
  );
};
