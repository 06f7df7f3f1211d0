import { Type } from "@sinclair/typebox";
import type { FastifyPluginAsync } from "fastify";
import type { Address } from "viem";
import { InvalidInputError } from "../errors/base.js";
import { type ExplorerRouteOptions, explorerDeps } from "./deps.js";
import { ADDRESS_HASH_PATTERN } from "./errors.js";
import { TOKEN_TYPE_LIST } from "./objects/nft-params.js";
import { tokenList } from "./token/list-service.js";
import { instanceTransfersCount, tokenCounters, tokenType } from "./token-holder/query.js";
import { tokenHolders, tokenInstanceHolders } from "./token-holder/service.js";
import { holderCursor } from "./token-holder/view.js";
import { tokenInstances } from "./token-instance/service.js";

const TOKEN_ID = "^[0-9]{1,78}$";
const Token = Type.Object({ address_hash_param: Type.String({ pattern: ADDRESS_HASH_PATTERN }) });
const Instance = Type.Object({
  address_hash_param: Type.String({ pattern: ADDRESS_HASH_PATTERN }),
  token_id_param: Type.String({ pattern: TOKEN_ID }),
});
const PAGING = {
  items_count: Type.Optional(Type.Integer({ minimum: 1, maximum: 50 })),
  apikey: Type.Optional(Type.String()),
  key: Type.Optional(Type.String()),
};
const HoldersQuery = Type.Object({
  ...PAGING,
  address_hash: Type.Optional(Type.String({ pattern: ADDRESS_HASH_PATTERN })),
  value: Type.Optional(Type.String({ pattern: TOKEN_ID })),
  token_id: Type.Optional(Type.String({ pattern: TOKEN_ID })),
});
const InstancesQuery = Type.Object({
  ...PAGING,
  unique_token: Type.Optional(Type.String({ pattern: TOKEN_ID })),
});
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
});

type P = { address_hash_param: string; token_id_param: string };
type ListQ = {
  q?: string;
  type?: string;
  contract_address_hash?: string;
  holders_count?: string;
  name?: string;
  is_name_null?: string;
};
const NOT_FOUND = { message: "Not found" };
const lower = (a: string) => a.toLowerCase() as Address;

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

/** Token list, counters, holders and inventory (GET /tokens, /tokens/{h}/{counters,holders,instances}, ...). */
export const tokenPageRoutes: FastifyPluginAsync<ExplorerRouteOptions> = async (app, opts) => {
  const deps = explorerDeps(opts);
  const tags = ["tokens"];
  app.get("/tokens", { schema: { querystring: ListQuery, tags } }, async (req) => {
    const q = req.query as ListQ;
    const cursor =
      q.contract_address_hash !== undefined && q.holders_count !== undefined
        ? {
            address: lower(q.contract_address_hash),
            holdersCount: BigInt(q.holders_count),
            name: q.is_name_null === "true" ? null : (q.name ?? ""),
          }
        : null;
    const term = q.q?.trim();
    return tokenList(deps.db, { types: listTypes(q.type), q: term ? term : null }, cursor);
  });
  app.get("/tokens/:address_hash_param/counters", { schema: { params: Token, tags } }, async (req, reply) => {
    const c = await tokenCounters(deps.db, lower((req.params as P).address_hash_param));
    return c
      ? { token_holders_count: c.holders, transfers_count: c.transfers }
      : reply.code(404).send(NOT_FOUND);
  });
  app.get(
    "/tokens/:address_hash_param/holders",
    { schema: { params: Token, querystring: HoldersQuery, tags } },
    async (req, reply) => {
      const page = await tokenHolders(
        deps.db,
        lower((req.params as P).address_hash_param),
        holderCursor(req.query as Record<string, string>),
        deps,
      );
      return page ?? reply.code(404).send(NOT_FOUND);
    },
  );
  app.get(
    "/tokens/:address_hash_param/instances",
    { schema: { params: Token, querystring: InstancesQuery, tags } },
    async (req, reply) => {
      const { unique_token } = req.query as { unique_token?: string };
      const page = await tokenInstances(
        deps.db,
        lower((req.params as P).address_hash_param),
        unique_token === undefined ? null : BigInt(unique_token),
        deps,
      );
      return page ?? reply.code(404).send(NOT_FOUND);
    },
  );
  app.get(
    "/tokens/:address_hash_param/instances/:token_id_param/holders",
    { schema: { params: Instance, querystring: HoldersQuery, tags } },
    async (req, reply) => {
      const { address_hash_param, token_id_param } = req.params as P;
      const page = await tokenInstanceHolders(
        deps.db,
        lower(address_hash_param),
        BigInt(token_id_param),
        holderCursor(req.query as Record<string, string>),
        deps,
      );
      return page ?? reply.code(404).send(NOT_FOUND);
    },
  );
  app.get(
    "/tokens/:address_hash_param/instances/:token_id_param/transfers-count",
    { schema: { params: Instance, tags } },
    async (req, reply) => {
      const { address_hash_param, token_id_param } = req.params as P;
      const type = await tokenType(deps.db, lower(address_hash_param));
      if (type === null || type === "ERC-20") return reply.code(404).send(NOT_FOUND);
      return {
        transfers_count: await instanceTransfersCount(
          deps.db,
          lower(address_hash_param),
          BigInt(token_id_param),
        ),
      };
    },
  );
};
