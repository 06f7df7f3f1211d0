import type { FastifyPluginAsync } from "fastify";
import { addressDetailsRoutes } from "./address/routes.js";
import type { ExplorerRouteOptions } from "./deps.js";
import { addressNftRoutes } from "./nft/routes.js";
import { tokenRoutes } from "./token/routes.js";
import { tokenPageRoutes } from "./token-pages.js";

/** The token, NFT and address-page routes of /api/v2 (one registration in plugin.ts). */
export const tokenExplorerRoutes: FastifyPluginAsync<ExplorerRouteOptions> = async (app, opts) => {
  await app.register(addressNftRoutes, opts);
  await app.register(addressDetailsRoutes, opts);
  await app.register(tokenRoutes, opts);
  await app.register(tokenPageRoutes, opts);
};
