import { Type } from "@sinclair/typebox";
import type { FastifyPluginAsync } from "fastify";
import type { Address } from "viem";
import { type ExplorerRouteOptions, explorerDeps } from "../deps.js";
import { ADDRESS_HASH_PATTERN } from "../errors.js";
import { requestMetadataRefetch, tokenInstance, tokenObject } from "./service.js";

const TokenParams = Type.Object({ address_hash_param: Type.String({ pattern: ADDRESS_HASH_PATTERN }) });
const InstanceParams = Type.Object({
  address_hash_param: Type.String({ pattern: ADDRESS_HASH_PATTERN }),
  token_id_param: Type.String({ pattern: "^[0-9]{1,78}$" }),
});
type P = { address_hash_param: string; token_id_param: string };
const NOT_FOUND = { message: "Not found" };

/** GET /tokens/{a}, GET /tokens/{a}/instances/{id}, PATCH /tokens/{a}/instances/{id}/refetch-metadata. */
export const tokenRoutes: FastifyPluginAsync<ExplorerRouteOptions> = async (app, opts) => {
  const deps = explorerDeps(opts);
  app.get(
    "/tokens/:address_hash_param",
    { schema: { params: TokenParams, tags: ["tokens"] } },
    async (req, reply) => {
      const { address_hash_param } = req.params as P;
      const token = await tokenObject(deps.db, address_hash_param.toLowerCase() as Address);
      return token ?? reply.code(404).send(NOT_FOUND);
    },
  );
  app.get(
    "/tokens/:address_hash_param/instances/:token_id_param",
    { schema: { params: InstanceParams, tags: ["tokens"] } },
    async (req, reply) => {
      const { address_hash_param, token_id_param } = req.params as P;
      const instance = await tokenInstance(
        deps.db,
        address_hash_param.toLowerCase() as Address,
        BigInt(token_id_param),
        deps,
      );
      return instance ?? reply.code(404).send(NOT_FOUND);
    },
  );
  app.patch(
    "/tokens/:address_hash_param/instances/:token_id_param/refetch-metadata",
    { schema: { params: InstanceParams, tags: ["tokens"] } },
    async (req, reply) => {
      const { address_hash_param, token_id_param } = req.params as P;
      const ok = await requestMetadataRefetch(
        deps.db,
        address_hash_param.toLowerCase() as Address,
        BigInt(token_id_param),
      );
      return ok ? { message: "OK" } : reply.code(404).send(NOT_FOUND);
    },
  );
};
