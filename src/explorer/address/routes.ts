import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { ResourceOptions } from "../deps.js";
import { answers } from "../errors.js";
import { ADDRESS_PARAMS, lower } from "../params.js";
import { AddressSchema } from "./schema.js";
import { addressDetails } from "./service.js";

/** GET /addresses/{h}: an unknown address gets a stub, never a 404 (upstream since 6.10). */
export const addressRoutes: FastifyPluginAsyncTypebox<ResourceOptions> = async (app, { deps }) => {
  app.get(
    "/addresses/:address_hash_param",
    { schema: { params: ADDRESS_PARAMS, tags: ["addresses"], response: answers(AddressSchema) } },
    async (req) => addressDetails(deps.db, lower(req.params.address_hash_param), deps),
  );
};
