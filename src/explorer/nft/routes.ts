import { Type } from "@sinclair/typebox";
import type { FastifyPluginAsync } from "fastify";
import type { Address } from "viem";
import { type ExplorerRouteOptions, explorerDeps } from "../deps.js";
import { ADDRESS_HASH_PATTERN } from "../errors.js";
import { parseNftCursor, parseNftTypes } from "../objects/nft-params.js";
import { nftCollectionsPage } from "./collections.js";
import { NftPageSchema } from "./schema.js";
import { nftPage } from "./service.js";
import { type NftPage, serializeNftPage } from "./view.js";

const Params = Type.Object({ address_hash_param: Type.String({ pattern: ADDRESS_HASH_PATTERN }) });
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

type NftQueryT = {
  type?: string;
  token_contract_address_hash?: string;
  token_id?: string;
  token_type?: string;
};

/** GET /addresses/{h}/nft and /addresses/{h}/nft/collections. */
export const addressNftRoutes: FastifyPluginAsync<ExplorerRouteOptions> = async (app, opts) => {
  const deps = explorerDeps(opts);
  app.get(
    "/addresses/:address_hash_param/nft",
    {
      schema: {
        params: Params,
        querystring: NftQuery,
        tags: ["addresses"],
        response: { 200: NftPageSchema },
      },
      // The schema documents the page; serializeNftPage writes it (shared owner and token objects once per page).
      serializerCompiler: () => (page) => serializeNftPage(page as NftPage),
    },
    async (req) => {
      const { address_hash_param } = req.params as { address_hash_param: string };
      const q = req.query as NftQueryT;
      const types = parseNftTypes(q.type);
      const cursor = parseNftCursor(q);
      return nftPage(deps.db, address_hash_param.toLowerCase() as Address, types, cursor, deps);
    },
  );
  app.get(
    "/addresses/:address_hash_param/nft/collections",
    { schema: { params: Params, querystring: CollectionsQuery, tags: ["addresses"] } },
    async (req) => {
      const { address_hash_param } = req.params as { address_hash_param: string };
      const q = req.query as NftQueryT;
      const types = parseNftTypes(q.type);
      const cursor = q.token_contract_address_hash
        ? {
            tokenAddress: q.token_contract_address_hash.toLowerCase() as Address,
            tokenType: parseNftCursor({ ...q, token_id: "0" })!.tokenType,
          }
        : null;
      return nftCollectionsPage(deps.db, address_hash_param.toLowerCase() as Address, types, cursor, deps);
    },
  );
};
