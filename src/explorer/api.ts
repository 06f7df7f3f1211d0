import type { FastifyError, FastifyPluginAsync } from "fastify";
import type { Db } from "../db/db.js";
import { LookoutError } from "../errors/base.js";
import { addressListRoutes } from "./address-lists.js";
import { blockRoutes } from "./block/routes.js";
import { coinBalanceRoutes } from "./coin-balance/routes.js";
import { type ExplorerRouteOptions, explorerDeps } from "./deps.js";
import { dropEmptyOptionalQuery } from "./empty-query.js";
import { invalidValue, type V2ErrorBody } from "./errors.js";
import { searchRoutes } from "./search/routes.js";
import { smartContractRoutes } from "./smart-contract/routes.js";
import { mainPageRoutes } from "./stats/routes.js";
import { tokenExplorerRoutes } from "./token-explorer.js";
import { transactionTransfersPreview } from "./token-transfer/service.js";
import { transactionRoutes } from "./transaction/routes.js";
import { transactionListRoutes } from "./transaction-lists.js";
import { transferListRoutes } from "./transfer-lists.js";

export type ApiV2Options = {
  db: Db;
  /** Tags, gateways and the verified-contract lookup of the address objects (defaults: none / environment). */
  explorer?: Omit<ExplorerRouteOptions, "db">;
  /** Days of `/coin-balance-history-by-day` (COIN_BALANCE_HISTORY_DAYS). */
  coinBalanceHistoryDays?: number;
  /** Whether this process's indexer has reached the head (`/main-page/indexing-status`); absent in `serve`. */
  caughtUp?: () => boolean;
};

/**
 * The explorer API (`/api/v2`), Blockscout-compatible. Its own error dialect: 422 with
 * `{"errors":[{"title":"Invalid value","source":{"pointer":...},"detail":...}]}` for bad input.
 * Route modules register themselves here.
 */
export const apiV2Plugin: FastifyPluginAsync<ApiV2Options> = async (app, _opts) => {
  dropEmptyOptionalQuery(app);
  app.setErrorHandler((err: FastifyError, req, reply) => {
    if (err.validation) {
      const v = err.validation[0];
      const ctx = err.validationContext;
      const field =
        (v?.params as { missingProperty?: string } | undefined)?.missingProperty ??
        v?.instancePath.replace(/^\//, "") ??
        "";
      // Blockscout names path parameters `<name>_param` in its pointers.
      const pointer =
        ctx === "params" && field && !field.endsWith("_param") ? `/${field}_param` : `/${field}`;
      const detail =
        ctx === "params" && v?.keyword === "pattern"
          ? `Invalid format. Expected ~r/${(v.params as { pattern: string }).pattern}/`
          : (v?.message ?? "Invalid value");
      return reply.code(422).send(invalidValue(pointer, detail));
    }
    if (err instanceof LookoutError && err.code === "invalid_input") {
      const field = (err as LookoutError & { field?: string }).field ?? "";
      return reply.code(422).send(invalidValue(`/${field}`, err.shortMessage));
    }
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      return reply.code(err.statusCode).send({ message: err.message });
    }
    req.log.error({ err }, "api/v2 request failed");
    return reply.code(500).send({ message: "Internal server error" } as V2ErrorBody | { message: string });
  });
  await app.register(tokenExplorerRoutes, { db: _opts.db, ..._opts.explorer });
  await app.register(coinBalanceRoutes, {
    db: _opts.db,
    ...(_opts.coinBalanceHistoryDays ? { days: _opts.coinBalanceHistoryDays } : {}),
  });
  await app.register(smartContractRoutes, {
    db: _opts.db,
    ...(_opts.explorer?.verified ? { verified: _opts.explorer.verified } : {}),
  });
  const explorer = { db: _opts.db, ..._opts.explorer };
  await app.register(blockRoutes, explorer);
  const previewDeps = explorerDeps(explorer);
  await app.register(transactionRoutes, {
    ...explorer,
    // The token-transfer preview of a transaction's details comes from the token-transfer resource.
    tokenTransfers: (hash) => transactionTransfersPreview(previewDeps, hash),
  });
  await app.register(transactionListRoutes, explorer);
  await app.register(addressListRoutes, explorer);
  await app.register(transferListRoutes, explorer);
  await app.register(mainPageRoutes, {
    ...explorer,
    ...(_opts.caughtUp ? { caughtUp: _opts.caughtUp } : {}),
  });
  await app.register(searchRoutes, explorer);
};
