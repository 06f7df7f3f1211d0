import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "@sinclair/typebox";
import type { ResourceOptions } from "../deps.js";
import { ADDRESS_HASH_PATTERN, answers } from "../errors.js";
import { parseNftCursor, parseNftTypes } from "../nft-params.js";
import { ADDRESS_PARAMS, lower } from "../params.js";
import { NftCollectionsPageSchema, NftPageSchema } from "./schema.js";
import { nftCollectionsPage, nftPage } from "./service.js";
import { type NftPage, serializeNftPage } from "./view.js";

const PagingQuery = {
  type: Type.Optional(Type.String()),
  items_count: Type.Optional(Type.Integer({ minimum: 1, maximum: 50 })),
  token_contract_address_hash: Type.Optional(Type.String({ pattern: ADDRESS_HASH_PATTERN })),
  token_type: Type.Optional(Type.String()),
  apikey: Type.Optional(Type.String()),
  key: Type.Optional(Type.String()),
};
const NftQuery = Type.Object({
  ...PagingQuery,
  token_id: Type.Optional(Type.String({ pattern: "^[0-9]{1,78}$" })),
});
const CollectionsQuery = Type.Object(PagingQuery);

/** GET /addresses/{h}/nft and /addresses/{h}/nft/collections. */
export const nftRoutes: FastifyPluginAsyncTypebox<ResourceOptions> = async (app, { deps }) => {
  app.get(
    "/addresses/:address_hash_param/nft",
    {
      schema: {
        params: ADDRESS_PARAMS,
        querystring: NftQuery,
        tags: ["addresses"],
        response: answers(NftPageSchema),
      },
      // The schema documents the page; serializeNftPage writes it (shared owner and token objects once per page).
      serializerCompiler: ({ httpStatus }) =>
        httpStatus === "200" ? (page) => serializeNftPage(page as NftPage) : (data) => JSON.stringify(data),
    },
    async (req) =>
      nftPage(
        deps.db,
        lower(req.params.address_hash_param),
        parseNftTypes(req.query.type),
        parseNftCursor(req.query),
        deps,
      ),
  );
  app.get(
    "/addresses/:address_hash_param/nft/collections",
    {
      schema: {
        params: ADDRESS_PARAMS,
        querystring: CollectionsQuery,
        tags: ["addresses"],
        response: answers(NftCollectionsPageSchema),
      },
    },
    async (req) => {
      const q = req.query;
      const types = parseNftTypes(q.type);
      const cursor = q.token_contract_address_hash
        ? {
            tokenAddress: lower(q.token_contract_address_hash),
            tokenType: parseNftCursor({ ...q, token_id: "0" })!.tokenType,
          }
        : null;
      return nftCollectionsPage(deps.db, lower(req.params.address_hash_param), types, cursor, deps);
    },
  );
};
