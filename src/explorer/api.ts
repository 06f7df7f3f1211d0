import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { dialectScope } from "../http/scope.js";
import { addressRoutes } from "./address/routes.js";
import { addressCounterRoutes } from "./address-counters/routes.js";
import { advancedFilterRoutes } from "./advanced-filter/routes.js";
import { auditReportRoutes } from "./audit-report/routes.js";
import { blobRoutes } from "./blob/routes.js";
import { blockRoutes } from "./block/routes.js";
import { blockCountdownRoutes } from "./block-countdown/routes.js";
import { chartRoutes } from "./chart/routes.js";
import { coinBalanceRoutes } from "./coin-balance/routes.js";
import { configRoutes } from "./config/routes.js";
import { csvExportRoutes } from "./csv-export/routes.js";
import type { ExplorerDeps, ResourceOptions } from "./deps.js";
import { blockscoutError } from "./errors.js";
import { fheOperationRoutes } from "./fhe-operation/routes.js";
import { hotContractRoutes } from "./hot-contract/routes.js";
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
import { transactionPreviewRoutes } from "./transaction-preview/routes.js";
import { utilsRoutes } from "./utils/routes.js";
import { watchlistRoutes } from "./watchlist/routes.js";
import { withdrawalRoutes } from "./withdrawal/routes.js";

/** The explorer's resources: one folder each (routes.ts, service.ts, query.ts, view.ts, schema.ts), one line here. */
const RESOURCES: FastifyPluginAsyncTypebox<ResourceOptions>[] = [
  addressRoutes,
  addressCounterRoutes,
  advancedFilterRoutes,
  auditReportRoutes,
  blobRoutes,
  blockRoutes,
  blockCountdownRoutes,
  chartRoutes,
  coinBalanceRoutes,
  configRoutes,
  csvExportRoutes,
  fheOperationRoutes,
  hotContractRoutes,
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
  transactionPreviewRoutes,
  utilsRoutes,
  watchlistRoutes,
  withdrawalRoutes,
];

export type ApiV2Options = {
  /** Built once by app/ from the configuration. */
  deps: ExplorerDeps;
};

/**
 * The explorer API (`/api/v2`), Blockscout-compatible. Its errors go through the shared handler in Blockscout's
 * dialect (`blockscoutError`): 422 with `{"errors":[{"title":"Invalid value","source":{"pointer":...},"detail":...}]}`
 * for bad input, `{message}` with the status otherwise, 503 for a transient database failure.
 */
export const apiV2Plugin: FastifyPluginAsyncTypebox<ApiV2Options> = async (app, opts) => {
  dropEmptyOptionalQuery(app);
  // The shared error handler in Blockscout's dialect; response schemas document the answers, the bodies are written
  // as the views build them (JSON.stringify), every member in order.
  dialectScope(app, { name: "api/v2", error: blockscoutError });
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
