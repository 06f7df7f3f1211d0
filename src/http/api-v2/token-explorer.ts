import type { FastifyPluginAsync } from "fastify";
import { addressDetailsRoutes } from "./address-details.js";
import { addressNftRoutes } from "./address-nft.js";
import type { ExplorerRouteOptions } from "./explorer-deps.js";
import { tokenPageRoutes } from "./token-pages.js";
import { tokenRoutes } from "./tokens.js";

/** The token, NFT and address-page routes of /api/v2 (one registration in plugin.ts). */
export const tokenExplorerRoutes: FastifyPluginAsync<ExplorerRouteOptions> = async (app, opts) => {
  await app.register(addressNftRoutes, opts);
  await app.register(addressDetailsRoutes, opts);
  await app.register(tokenRoutes, opts);
  await app.register(tokenPageRoutes, opts);
};
