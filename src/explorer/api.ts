import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { FastifyError } from "fastify";
import { LookoutError } from "../errors/base.js";
import { plainDialect, transientFailureReply } from "../http/dialects.js";
import { addressRoutes } from "./address/routes.js";
import { addressCounterRoutes } from "./address-counters/routes.js";
import { advancedFilterRoutes } from "./advanced-filter/routes.js";
import { blobRoutes } from "./blob/routes.js";
import { blockRoutes } from "./block/routes.js";
import { chartRoutes } from "./chart/routes.js";
import { coinBalanceRoutes } from "./coin-balance/routes.js";
import { csvExportRoutes } from "./csv-export/routes.js";
import type { ExplorerDeps, ResourceOptions } from "./deps.js";
import { invalidValue, type V2ErrorBody } from "./errors.js";
import { internalTransactionRoutes } from "./internal-transaction/routes.js";
import { logRoutes } from "./log/routes.js";
import { nftRoutes } from "./nft/routes.js";
import { searchRoutes } from "./search/routes.js";
import { smartContractRoutes } from "./smart-contract/routes.js";
import { stateChangeRoutes } from "./state-change/routes.js";
import { statsRoutes } from "./stats/routes.js";
import { tokenRoutes } from "./token/routes.js";
import { tokenBalanceRoutes } from "./token-balance/routes.js";
import { tokenHolderRoutes } from "./token-holder/routes.js";
import { tokenInstanceRoutes } from "./token-instance/routes.js";
import { tokenTransferRoutes } from "./token-transfer/routes.js";
import { transactionTransfersPreview } from "./token-transfer/service.js";
import { topAccountRoutes } from "./top-account/routes.js";
import { transactionRoutes } from "./transaction/routes.js";
import { utilsRoutes } from "./utils/routes.js";
import { withdrawalRoutes } from "./withdrawal/routes.js";

/** The explorer's resources: one folder each (routes.ts, service.ts, query.ts, view.ts, schema.ts), one line here. */
const RESOURCES: FastifyPluginAsyncTypebox<ResourceOptions>[] = [
  addressRoutes,
  addressCounterRoutes,
  advancedFilterRoutes,
  blobRoutes,
  blockRoutes,
  chartRoutes,
  coinBalanceRoutes,
  csvExportRoutes,
  internalTransactionRoutes,
  logRoutes,
  nftRoutes,
  searchRoutes,
  smartContractRoutes,
  stateChangeRoutes,
  statsRoutes,
  tokenRoutes,
  tokenBalanceRoutes,
  tokenHolderRoutes,
  tokenInstanceRoutes,
  tokenTransferRoutes,
  topAccountRoutes,
  transactionRoutes,
  utilsRoutes,
  withdrawalRoutes,
];

export type ApiV2Options = {
  /** Built once by app/ from the configuration. */
  deps: ExplorerDeps;
};

/**
 * The explorer API (`/api/v2`), Blockscout-compatible. Its own error dialect: 422 with
 * `{"errors":[{"title":"Invalid value","source":{"pointer":...},"detail":...}]}` for bad input.
 */
/** Blockscout answers a transient failure `{message}` with 503, as the plain dialect does. */
const BLOCKSCOUT_UNAVAILABLE = plainDialect([]);

export const apiV2Plugin: FastifyPluginAsyncTypebox<ApiV2Options> = async (app, opts) => {
  dropEmptyOptionalQuery(app);
  // Response schemas document the answers; the bodies are written as the views build them, every member in order.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
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
    const transient = transientFailureReply(err, req, reply, BLOCKSCOUT_UNAVAILABLE);
    if (transient) return transient;
    req.log.error({ err }, "api/v2 request failed");
    return reply.code(500).send({ message: "Internal server error" } as V2ErrorBody | { message: string });
  });
  const options: ResourceOptions = {
    deps: opts.deps,
    tokenTransfers: (hash) => transactionTransfersPreview(opts.deps, hash),
  };
  for (const resource of RESOURCES) await app.register(resource, options);
};

/**
 * The frontend sends an empty filter as an empty member (`type=`, `filter=`: an empty array joined); Blockscout
 * reads it as no filter. Optional members that are empty are dropped before validation, so they mean "absent";
 * a required member stays (and is validated as sent).
 */
function dropEmptyOptionalQuery(app: Parameters<FastifyPluginAsyncTypebox>[0]): void {
  app.addHook("preValidation", async (req) => {
    const query: unknown = req.query;
    if (!query || typeof query !== "object") return;
    const schema: { required?: string[] } | undefined = req.routeOptions.schema?.querystring ?? undefined;
    const required = new Set(schema?.required ?? []);
    for (const [key, value] of Object.entries(query)) {
      if (value === "" && !required.has(key)) delete (query as Record<string, unknown>)[key];
    }
  });
}
