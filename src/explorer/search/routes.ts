import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "@sinclair/typebox";
import type { ResourceOptions } from "../deps.js";
import { ADDRESS_HASH_PATTERN, answers } from "../errors.js";
import { lower, PAGING } from "../params.js";
import type { NameCursor } from "./query.js";
import { QuickSearchSchema, RedirectSchema, SearchResultSchema } from "./schema.js";
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

/** The cursor of a search page, when the query carries a whole one (else the first page). */
function nameCursor(q: {
  item_type?: "token" | "contract";
  name?: string;
  address_hash?: string;
  holders_count?: number | "null";
}): NameCursor | null {
  if (!q.item_type || q.name === undefined || !q.address_hash) return null;
  const address = lower(q.address_hash);
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
export const searchRoutes: FastifyPluginAsyncTypebox<ResourceOptions> = async (app, { deps }) => {
  app.get(
    "/search",
    { schema: { querystring: SearchPageQuery, tags: ["search"], response: answers(SearchResultSchema) } },
    async (req) => searchResults(deps, req.query.q, nameCursor(req.query)),
  );
  app.get(
    "/search/quick",
    { schema: { querystring: SearchQuery, tags: ["search"], response: answers(QuickSearchSchema) } },
    async (req) => search(deps, req.query.q),
  );
  app.get(
    "/search/check-redirect",
    { schema: { querystring: SearchQuery, tags: ["search"], response: answers(RedirectSchema) } },
    async (req) => checkRedirect(deps, req.query.q),
  );
};
