import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "@sinclair/typebox";
import type { ResourceOptions } from "../deps.js";
import { ADDRESS_HASH_PATTERN, answers } from "../errors.js";
import { ADDRESS_PARAMS, lower, PAGING, TOKEN_TYPES_QUERY, tokenTypes } from "../params.js";
import type { TokenType } from "./query.js";
import { AddressTokensResponseSchema, TokenBalancesSchema } from "./schema.js";
import { addressTokenBalances, addressTokens } from "./service.js";

const TokensQuery = Type.Object({
  ...TOKEN_TYPES_QUERY,
  value: Type.Optional(Type.String({ pattern: "^[0-9]{1,80}$" })),
  token_contract_address_hash: Type.Optional(Type.String({ pattern: ADDRESS_HASH_PATTERN })),
  token_id: Type.Optional(Type.String({ pattern: "^[0-9]{1,80}$" })),
  token_name: Type.Optional(Type.String()),
  token_type: Type.Optional(Type.String()),
  fiat_value: Type.Optional(Type.String()),
  ...PAGING,
});

/** /addresses/{h}/tokens (paged, by type) and /addresses/{h}/token-balances (all of them). */
export const tokenBalanceRoutes: FastifyPluginAsyncTypebox<ResourceOptions> = async (app, { deps }) => {
  app.get(
    "/addresses/:address_hash_param/tokens",
    {
      schema: {
        params: ADDRESS_PARAMS,
        querystring: TokensQuery,
        tags: ["addresses"],
        response: answers(AddressTokensResponseSchema),
      },
    },
    async (req) => {
      const q = req.query;
      return addressTokens(
        deps,
        lower(req.params.address_hash_param),
        tokenTypes<TokenType>(q.type),
        q.value !== undefined && q.token_contract_address_hash
          ? { value: q.value, tokenAddress: q.token_contract_address_hash, tokenId: q.token_id ?? null }
          : null,
      );
    },
  );
  app.get(
    "/addresses/:address_hash_param/token-balances",
    { schema: { params: ADDRESS_PARAMS, tags: ["addresses"], response: answers(TokenBalancesSchema) } },
    async (req) => addressTokenBalances(deps, lower(req.params.address_hash_param)),
  );
};
