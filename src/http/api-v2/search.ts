import { Type } from "@sinclair/typebox";
import type { FastifyPluginAsync } from "fastify";
import { checkRedirect, search } from "../../explorer/search/service.js";
import { type ExplorerRouteOptions, explorerDeps } from "./explorer-deps.js";
import { PAGING } from "./paging.js";

const SearchQuery = Type.Object({ q: Type.String({ maxLength: 256 }), ...PAGING });

/** /search, /search/quick, /search/check-redirect. */
export const searchRoutes: FastifyPluginAsync<ExplorerRouteOptions> = async (app, opts) => {
  const deps = explorerDeps(opts);
  const q = (req: { query: unknown }) => (req.query as { q: string }).q;
  // Every match fits one page: next_page_params is always null.
  app.get("/search", { schema: { querystring: SearchQuery, tags: ["search"] } }, async (req) => ({
    items: await search(deps, q(req)),
    next_page_params: null,
  }));
  app.get("/search/quick", { schema: { querystring: SearchQuery, tags: ["search"] } }, async (req) =>
    search(deps, q(req)),
  );
  app.get("/search/check-redirect", { schema: { querystring: SearchQuery, tags: ["search"] } }, async (req) =>
    checkRedirect(deps, q(req)),
  );
};
