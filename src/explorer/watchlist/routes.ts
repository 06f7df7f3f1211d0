import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { ResourceOptions } from "../deps.js";
import { UnauthorizedSchema } from "./schema.js";

/** Blockscout's FallbackController for `{:auth, _}`: a request without a signed-in account. */
const UNAUTHORIZED = { message: "Unauthorized" } as const;

/**
 * /transactions/watchlist and /main-page/transactions/watchlist: the signed-in user's watchlist. Lookout has no
 * user accounts, so every request is one without a session: 401, as Blockscout answers it.
 */
export const watchlistRoutes: FastifyPluginAsyncTypebox<ResourceOptions> = async (app) => {
  const schema = (tag: string) => ({ tags: [tag], response: { 401: UnauthorizedSchema } });
  app.get("/transactions/watchlist", { schema: schema("transactions") }, async (_req, reply) =>
    reply.code(401).send(UNAUTHORIZED),
  );
  app.get("/main-page/transactions/watchlist", { schema: schema("main-page") }, async (_req, reply) =>
    reply.code(401).send(UNAUTHORIZED),
  );
};
