import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "@sinclair/typebox";
import { InvalidInputError } from "../../errors/base.js";
import type { ResourceOptions } from "../deps.js";
import { ADDRESS_HASH_PATTERN, answers, NOT_FOUND } from "../errors.js";
import { TOKEN_TYPE_LIST } from "../nft-params.js";
import { TokenObjectSchema } from "../objects/token-schema.js";
import { ADDRESS_PARAMS, lower, PAGING } from "../params.js";
import { tokenCounters } from "./query.js";
import { FrontendTokenCounters, FrontendTokensResponse } from "./schema.js";
import { tokenList, tokenObject } from "./service.js";

const ListQuery = Type.Object({
  ...PAGING,
  q: Type.Optional(Type.String({ maxLength: 200 })),
  type: Type.Optional(Type.String()),
  contract_address_hash: Type.Optional(Type.String({ pattern: ADDRESS_HASH_PATTERN })),
  holders_count: Type.Optional(Type.String({ pattern: "^[0-9]{1,18}$" })),
  name: Type.Optional(Type.String()),
  is_name_null: Type.Optional(Type.String()),
  market_cap: Type.Optional(Type.String()),
  fiat_value: Type.Optional(Type.String()),
  sort: Type.Optional(
    Type.Union(
      [Type.Literal("fiat_value"), Type.Literal("holders_count"), Type.Literal("circulating_market_cap")],
      { description: "Sort key (with `order`; without both, Blockscout's default order)" },
    ),
  ),
  order: Type.Optional(Type.Union([Type.Literal("asc"), Type.Literal("desc")])),
});

/** `type` of the token list: upstream's pattern (a 422 otherwise); empty means every type. */
function listTypes(raw: string | undefined): string[] | null {
  if (raw === undefined || raw === "") return null;
  if (!TOKEN_TYPE_LIST.test(raw))
    throw new InvalidInputError(`Invalid value for type: "${raw}"`, { field: "type" });
  return [
    ...new Set(
      raw
        .toUpperCase()
        .replace(/^\[|\]$/g, "")
        .split(","),
    ),
  ];
}

/** GET /tokens (the list), /tokens/{h} (the token object), /tokens/{h}/counters. Unknown token: 404. */
export const tokenRoutes: FastifyPluginAsyncTypebox<ResourceOptions> = async (app, { deps }) => {
  const tags = ["tokens"];
  app.get(
    "/tokens",
    { schema: { querystring: ListQuery, tags, response: answers(FrontendTokensResponse) } },
    async (req) => {
      const q = req.query;
      const cursor =
        q.contract_address_hash !== undefined && q.holders_count !== undefined
          ? {
              address: lower(q.contract_address_hash),
              holdersCount: BigInt(q.holders_count),
              name: q.is_name_null === "true" ? null : (q.name ?? ""),
            }
          : null;
      const term = q.q?.trim();
      // Blockscout's tokens_sorting: both `sort` and `order`; fiat value and market cap are null here, so only
      // holders ascending differs from the default (holders descending).
      const order = q.sort === "holders_count" && q.order === "asc" ? "holders_asc" : "holders_desc";
      return tokenList(deps.db, { types: listTypes(q.type), q: term ? term : null }, cursor, order);
    },
  );
  app.get(
    "/tokens/:address_hash_param",
    { schema: { params: ADDRESS_PARAMS, tags, response: answers(TokenObjectSchema, { notFound: true }) } },
    async (req, reply) => {
      const token = await tokenObject(deps.db, lower(req.params.address_hash_param));
      return token ?? reply.code(404).send(NOT_FOUND);
    },
  );
  app.get(
    "/tokens/:address_hash_param/counters",
    {
      schema: { params: ADDRESS_PARAMS, tags, response: answers(FrontendTokenCounters, { notFound: true }) },
    },
    async (req, reply) => {
      const c = await tokenCounters(deps.db, lower(req.params.address_hash_param));
      return c
        ? { token_holders_count: c.holders, transfers_count: c.transfers }
        : reply.code(404).send(NOT_FOUND);
    },
  );
};
