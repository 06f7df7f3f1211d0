import { Type } from "@sinclair/typebox";
import type { FastifyPluginAsync } from "fastify";
import type { Address } from "viem";
import { type ExplorerRouteOptions, explorerDeps } from "../deps.js";
import { ADDRESS_HASH_PATTERN } from "../errors.js";
import { addressDetails } from "./service.js";

const Params = Type.Object({ address_hash_param: Type.String({ pattern: ADDRESS_HASH_PATTERN }) });

/** GET /addresses/{h}: an unknown address gets a stub, never a 404 (upstream since 6.10). */
export const addressDetailsRoutes: FastifyPluginAsync<ExplorerRouteOptions> = async (app, opts) => {
  const deps = explorerDeps(opts);
  app.get(
    "/addresses/:address_hash_param",
    { schema: { params: Params, tags: ["addresses"] } },
    async (req) => {
      const { address_hash_param } = req.params as { address_hash_param: string };
      return addressDetails(deps.db, address_hash_param.toLowerCase() as Address, deps);
    },
  );
};
