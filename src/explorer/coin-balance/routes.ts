import { type Static, Type } from "@sinclair/typebox";
import type { FastifyPluginAsync } from "fastify";
import type { Db } from "../../db/db.js";
import { ADDRESS_HASH_PATTERN } from "../errors.js";
import { CoinBalanceByDaySchema, CoinBalanceHistorySchema } from "./schema.js";
import { coinBalanceHistoryDays, getCoinBalanceByDay, getCoinBalanceHistory } from "./service.js";

// Blockscout names the path parameter `address_hash_param`: its 422 pointer is `/address_hash_param`.
const Params = Type.Object({ address_hash_param: Type.String({ pattern: ADDRESS_HASH_PATTERN }) });

const HistoryQuery = Type.Object({
  // Heights are int8 in the database; above 2^53-1 a JS number would no longer be exact.
  block_number: Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER })),
  // Echoed by clients from next_page_params; validated as Blockscout 9.x does (1..50), otherwise ignored.
  items_count: Type.Optional(Type.Integer({ minimum: 1, maximum: 50 })),
  apikey: Type.Optional(Type.String()),
  key: Type.Optional(Type.String()),
});

export type CoinBalanceRouteOptions = { db: Db; days?: number };

/** GET /addresses/{h}/coin-balance-history and /addresses/{h}/coin-balance-history-by-day. */
export const coinBalanceRoutes: FastifyPluginAsync<CoinBalanceRouteOptions> = async (app, opts) => {
  const days = opts.days ?? coinBalanceHistoryDays();
  app.get(
    "/addresses/:address_hash_param/coin-balance-history",
    {
      schema: {
        tags: ["addresses"],
        params: Params,
        querystring: HistoryQuery,
        response: { 200: CoinBalanceHistorySchema },
      },
    },
    async (req) => {
      const { address_hash_param } = req.params as Static<typeof Params>;
      const { block_number } = req.query as Static<typeof HistoryQuery>;
      return getCoinBalanceHistory(opts.db, address_hash_param, block_number ?? null);
    },
  );
  app.get(
    "/addresses/:address_hash_param/coin-balance-history-by-day",
    { schema: { tags: ["addresses"], params: Params, response: { 200: CoinBalanceByDaySchema } } },
    async (req) => {
      const { address_hash_param } = req.params as Static<typeof Params>;
      return getCoinBalanceByDay(opts.db, address_hash_param, days);
    },
  );
};
