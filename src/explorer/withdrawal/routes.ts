import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "@sinclair/typebox";
import type { Hex } from "viem";
import type { ResourceOptions } from "../deps.js";
import { answers, NOT_FOUND } from "../errors.js";
import { ADDRESS_PARAMS, BLOCK_PARAMS, lower, PAGING } from "../params.js";
import { WithdrawalsCountersSchema, WithdrawalsResponseSchema } from "./list-schema.js";
import { AddressWithdrawalsResponseSchema, BlockWithdrawalsResponseSchema } from "./schema.js";
import { addressWithdrawals, blockWithdrawals, chainWithdrawals, withdrawalCounters } from "./service.js";

const WithdrawalsQuery = Type.Object({
  index: Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER })),
  ...PAGING,
});

/** /withdrawals, /withdrawals/counters, /addresses/{h}/withdrawals and /blocks/{n}/withdrawals (unknown block: 404). */
export const withdrawalRoutes: FastifyPluginAsyncTypebox<ResourceOptions> = async (app, { deps }) => {
  app.get(
    "/addresses/:address_hash_param/withdrawals",
    {
      schema: {
        params: ADDRESS_PARAMS,
        querystring: WithdrawalsQuery,
        tags: ["addresses"],
        response: answers(AddressWithdrawalsResponseSchema),
      },
    },
    async (req) => {
      const { index } = req.query;
      return addressWithdrawals(
        deps,
        lower(req.params.address_hash_param),
        index === undefined ? null : BigInt(index),
      );
    },
  );
  app.get(
    "/blocks/:block_hash_or_number_param/withdrawals",
    {
      schema: {
        params: BLOCK_PARAMS,
        querystring: WithdrawalsQuery,
        tags: ["blocks"],
        response: answers(BlockWithdrawalsResponseSchema, { notFound: true }),
      },
    },
    async (req, reply) => {
      const p = req.params.block_hash_or_number_param;
      const ref = p.startsWith("0x") ? lower<Hex>(p) : Number(p);
      const { index } = req.query;
      const page = await blockWithdrawals(deps, ref, index === undefined ? null : BigInt(index));
      return page ?? reply.code(404).send(NOT_FOUND);
    },
  );
  app.get(
    "/withdrawals",
    {
      schema: {
        querystring: WithdrawalsQuery,
        tags: ["withdrawals"],
        response: answers(WithdrawalsResponseSchema),
      },
    },
    async (req) => chainWithdrawals(deps, req.query.index === undefined ? null : BigInt(req.query.index)),
  );
  app.get(
    "/withdrawals/counters",
    { schema: { tags: ["withdrawals"], response: answers(WithdrawalsCountersSchema) } },
    async () => withdrawalCounters(deps),
  );
};
