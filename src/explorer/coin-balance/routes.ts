import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "@sinclair/typebox";
import type { ResourceOptions } from "../deps.js";
import { answers } from "../errors.js";
import { ADDRESS_PARAMS, BLOCK_CURSOR, PAGING } from "../params.js";
import { CoinBalanceByDaySchema, CoinBalanceHistorySchema } from "./schema.js";
import { DEFAULT_COIN_BALANCE_HISTORY_DAYS, getCoinBalanceByDay, getCoinBalanceHistory } from "./service.js";

// items_count is echoed by clients from next_page_params; validated as Blockscout 9.x does (1..50), otherwise ignored.
const HistoryQuery = Type.Object({ ...BLOCK_CURSOR, ...PAGING });

/** GET /addresses/{h}/coin-balance-history and /addresses/{h}/coin-balance-history-by-day. */
export const coinBalanceRoutes: FastifyPluginAsyncTypebox<ResourceOptions> = async (app, { deps }) => {
  const days = deps.coinBalanceHistoryDays ?? DEFAULT_COIN_BALANCE_HISTORY_DAYS;
  app.get(
    "/addresses/:address_hash_param/coin-balance-history",
    {
      schema: {
        tags: ["addresses"],
        params: ADDRESS_PARAMS,
        querystring: HistoryQuery,
        response: answers(CoinBalanceHistorySchema),
      },
    },
    async (req) =>
      getCoinBalanceHistory(deps.db, req.params.address_hash_param, req.query.block_number ?? null),
  );
  app.get(
    "/addresses/:address_hash_param/coin-balance-history-by-day",
    { schema: { tags: ["addresses"], params: ADDRESS_PARAMS, response: answers(CoinBalanceByDaySchema) } },
    async (req) => getCoinBalanceByDay(deps.db, req.params.address_hash_param, days),
  );
};
