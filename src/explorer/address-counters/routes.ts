import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { ResourceOptions } from "../deps.js";
import { answers } from "../errors.js";
import { ADDRESS_PARAMS, lower } from "../params.js";
import { AddressCountersSchema, AddressTabsCountersSchema } from "./schema.js";
import { addressCountersPage, addressTabsCounters } from "./service.js";

/** GET /addresses/{h}/counters and /addresses/{h}/tabs-counters. */
export const addressCounterRoutes: FastifyPluginAsyncTypebox<ResourceOptions> = async (app, { deps }) => {
  app.get(
    "/addresses/:address_hash_param/counters",
    { schema: { params: ADDRESS_PARAMS, tags: ["addresses"], response: answers(AddressCountersSchema) } },
    async (req) => addressCountersPage(deps.db, lower(req.params.address_hash_param)),
  );
  app.get(
    "/addresses/:address_hash_param/tabs-counters",
    { schema: { params: ADDRESS_PARAMS, tags: ["addresses"], response: answers(AddressTabsCountersSchema) } },
    async (req) => addressTabsCounters(deps.db, lower(req.params.address_hash_param)),
  );
};
