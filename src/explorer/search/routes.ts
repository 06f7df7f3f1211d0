import { Type } from "@sinclair/typebox";
import type { FastifyPluginAsync } from "fastify";
import { type ExplorerRouteOptions, explorerDeps } from "../deps.js";
import { ADDRESS_HASH_PATTERN } from "../errors.js";
import { PAGING } from "../params.js";
import type { NameCursor } from "./query.js";
import { checkRedirect, search, searchResults } from "./service.js";

const SearchQuery = Type.Object({ q: Type.String({ maxLength: 256 }), ...PAGING });
/** The search's own next_page_params, sent back: the last match of the previous page. */
const SearchPageQuery = Type.Object({
  q: Type.String({ maxLength: 256 }),
  ...PAGING,
  item_type: Type.Optional(Type.Union([Type.Literal("token"), Type.Literal("contract")])),
  name: Type.Optional(Type.String({ maxLength: 1024 })),
  address_hash: Type.Optional(Type.String({ pattern: ADDRESS_HASH_PATTERN })),
  // A number, or "null" for a token without a holder count (how the frontend sends a null member back).
  holders_count: Type.Optional(Type.Union([Type.Integer({ minimum: 0 }), Type.Literal("null")])),
  block_hash: Type.Optional(Type.String()),
  transaction_hash: Type.Optional(Type.String()),
  inserted_at: Type.Optional(Type.String()),
});
type SearchPageQueryT = {
  q: string;
  item_type?: "token" | "contract";
  name?: string;
  address_hash?: string;
  holders_count?: number | "null";
};

/** The cursor of a search page, when the query carries a whole one (else the first page). */
function nameCursor(q: SearchPageQueryT): NameCursor | null {
  if (!q.item_type || q.name === undefined || !q.address_hash) return null;
  const address = q.address_hash.toLowerCase() as `0x${string}`;
  return q.item_type === "contract"
    ? { kind: "contract", name: q.name, address }
    : {
        kind: "token",
        name: q.name,
        address,
        holders: typeof q.holders_count === "number" ? q.holders_count : null,
      };
}

/** /search, /search/quick, /search/check-redirect. */
export const searchRoutes: FastifyPluginAsync<ExplorerRouteOptions> = async (app, opts) => {
  const deps = explorerDeps(opts);
  const q = (req: { query: unknown }) => (req.query as { q: string }).q;
  app.get("/search", { schema: { querystring: SearchPageQuery, tags: ["search"] } }, async (req) => {
    const query = req.query as SearchPageQueryT;
    return searchResults(deps, query.q, nameCursor(query));
  });
  app.get("/search/quick", { schema: { querystring: SearchQuery, tags: ["search"] } }, async (req) =>
    search(deps, q(req)),
  );
  app.get("/search/check-redirect", { schema: { querystring: SearchQuery, tags: ["search"] } }, async (req) =>
    checkRedirect(deps, q(req)),
  );
};
