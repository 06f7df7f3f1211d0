import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "@sinclair/typebox";
import type { ResourceOptions } from "../deps.js";
import { ADDRESS_HASH_PATTERN, answers, NOT_FOUND } from "../errors.js";
import { ADDRESS_PARAMS, lower, PAGING, TOKEN_INSTANCE_PARAMS } from "../params.js";
import { FrontendTokenHolders } from "./schema.js";
import { tokenHolders, tokenInstanceHolders } from "./service.js";
import { holderCursor } from "./view.js";

const TOKEN_ID = "^[0-9]{1,78}$";
const HoldersQuery = Type.Object({
  ...PAGING,
  address_hash: Type.Optional(Type.String({ pattern: ADDRESS_HASH_PATTERN })),
  value: Type.Optional(Type.String({ pattern: TOKEN_ID })),
  token_id: Type.Optional(Type.String({ pattern: TOKEN_ID })),
});
const page = answers(FrontendTokenHolders, { notFound: true });

/** /tokens/{h}/holders and /tokens/{h}/instances/{id}/holders (unknown token: 404). */
export const tokenHolderRoutes: FastifyPluginAsyncTypebox<ResourceOptions> = async (app, { deps }) => {
  app.get(
    "/tokens/:address_hash_param/holders",
    { schema: { params: ADDRESS_PARAMS, querystring: HoldersQuery, tags: ["tokens"], response: page } },
    async (req, reply) => {
      const found = await tokenHolders(
        deps.db,
        lower(req.params.address_hash_param),
        holderCursor(req.query),
        deps,
      );
      return found ?? reply.code(404).send(NOT_FOUND);
    },
  );
  app.get(
    "/tokens/:address_hash_param/instances/:token_id_param/holders",
    {
      schema: { params: TOKEN_INSTANCE_PARAMS, querystring: HoldersQuery, tags: ["tokens"], response: page },
    },
    async (req, reply) => {
      const found = await tokenInstanceHolders(
        deps.db,
        lower(req.params.address_hash_param),
        BigInt(req.params.token_id_param),
        holderCursor(req.query),
        deps,
      );
      return found ?? reply.code(404).send(NOT_FOUND);
    },
  );
};
