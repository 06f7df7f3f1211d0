import cors from "@fastify/cors";
import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  LogController,
  type RouteOptions,
} from "fastify";
import type { Config } from "../config/config.js";
import type { Db } from "../db/db.js";
import { apiV2Plugin } from "../explorer/api.js";
import { coinBalanceHistoryDays } from "../explorer/coin-balance/service.js";
import { csvExportV1Routes } from "../explorer/csv-export/routes.js";
import type { ExplorerDeps } from "../explorer/deps.js";
import { loadPublicTags } from "../explorer/objects/tags.js";
import { decodeColonInPath } from "../http/colon-url.js";
import { createDialectHandlers, plainDialect, rejectNonFiniteNumbers } from "../http/dialects.js";
import { registerOps } from "../http/ops.js";
import { type HttpLimits, serverTimeouts } from "../http/timeouts.js";
import { type LiveSocketOptions, liveSocketPlugin } from "../live/socket.js";
import type { Metrics } from "../metrics/registry.js";
import { ethRpcPlugin } from "../rpc-api/eth-rpc/plugin.js";
import { rpcApiRoute, sendAnswer } from "../rpc-api/index.js";
import { legacyRoutesPlugin } from "../rpc-api/legacy.js";
import type { RpcApiDeps } from "../rpc-api/reply.js";
import { metadataFetcherConfigFromEnv } from "../token-workers/metadata/index.js";
import type { Logger } from "../util/logger.js";
import type { VerifierApi } from "../verifier/api.js";
import type { OtherApiModules } from "../verifier-apis/dialect.js";
import { DIALECTS } from "../verifier-apis/index.js";
import { apiHealthRoutes } from "./api-health.js";
import { type HealthSources, healthRoutes } from "./health.js";

export type AppDeps = {
  db: Db;
  config: Pick<Config, "bodyLimit"> &
    Partial<Pick<Config, "coinBalanceHistoryDays" | "corsOrigin" | "healthMaxLagBlocks"> & HttpLimits>;
  logger?: Logger | false;
  health?: HealthSources;
  /** Address-object options of the explorer API (public tags, gateways, verified-contract lookup). */
  explorer?: Pick<ExplorerDeps, "verified" | "tags" | "gateways">;
  /**
   * The verifier: without it only eth-bytecode-db's searches are served; without its `verify`, no synchronous
   * verification; without its `jobs`, not the Etherscan (`/api`), Sourcify (`/sourcify`) APIs and the verify form.
   */
  verifier?: VerifierApi;
  /** Live updates: without it the socket `/socket/v2/websocket` is not served. */
  live?: LiveSocketOptions;
  /** Serves `/metrics` and records request latency by route. */
  metrics?: Metrics;
  /** Set when the database cannot be written (a read-only role): every write answers 503 with this reason. */
  readOnlyReason?: string | null;
  /** Told of every route as it is registered (the route fuzz test enumerates the API with it). */
  onRoute?: (route: RouteOptions) => void;
};

// The app as route modules see it: any logger, TypeBox schemas inferring handler types.
export type App = FastifyInstance;

/** Blockscout's CORSPlug defaults (GET, POST, PUT, PATCH, DELETE, OPTIONS), with HEAD, which Lookout serves too. */
export const CORS_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

/** `CORS_ORIGIN` as @fastify/cors takes it: any origin (`*`), or the listed ones (echoed back when they match). */
export function corsOrigin(list: readonly string[] | undefined): string | string[] {
  if (!list || list.length === 0 || list.includes("*")) return "*";
  return [...list];
}

/**
 * The explorer's dependencies, built once. What the caller leaves out comes from the environment, as the CLI's
 * configuration would read it (PUBLIC_TAGS_FILE, IPFS/ARWEAVE gateways, COIN_BALANCE_HISTORY_DAYS).
 */
function explorerDeps(deps: AppDeps): ExplorerDeps {
  const progress = deps.health?.progress;
  return {
    db: deps.db,
    ...(deps.explorer?.verified ? { verified: deps.explorer.verified } : {}),
    tags: deps.explorer?.tags ?? loadPublicTags(process.env.PUBLIC_TAGS_FILE),
    gateways: deps.explorer?.gateways ?? metadataFetcherConfigFromEnv(process.env).gateways,
    coinBalanceHistoryDays: deps.config.coinBalanceHistoryDays || coinBalanceHistoryDays(process.env),
    ...(progress ? { caughtUp: () => progress.snapshot().caughtUp } : {}),
  };
}

/** The RPC API's modules beside the verification module's `contract` actions at `/api`. */
function rpcApiModules(rpcDeps: RpcApiDeps): OtherApiModules {
  return (p, ownAction) => {
    const route = rpcApiRoute(p, ownAction);
    return route && (async (reply, log) => sendAnswer(reply, await route(rpcDeps, log)));
  };
}

/** Framework errors by path: every dialect's (served or not), the docs `{message}`. */
const dialectHandlers = createDialectHandlers([...DIALECTS, plainDialect(["/api/docs"])]);

/** Builds the HTTP application; never listens (main.ts does), so tests use `inject`. */
export async function buildApp(deps: AppDeps): Promise<App> {
  const { notFoundHandler, rootErrorHandler, frameworkErrorHandler, clientErrorHandler } = dialectHandlers;
  const app = Fastify({
    loggerInstance: (deps.logger || undefined) as FastifyBaseLogger | undefined,
    bodyLimit: deps.config.bodyLimit,
    // Blockscout clients send `?type=ERC-721,ERC-1155` etc.; keep query parsing standard and predictable.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 1000 },
    rewriteUrl: (req) => decodeColonInPath(req.url ?? "/"),
    ajv: { customOptions: { coerceTypes: true, removeAdditional: false, allErrors: false } },
    logController: new LogController({ disableRequestLogging: true }),
    ...serverTimeouts(deps.config),
    // Errors before any API plugin sees the request, in the dialect of the path (dialects.ts).
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
  }).withTypeProvider<TypeBoxTypeProvider>();
  if (deps.onRoute) app.addHook("onRoute", deps.onRoute);
  registerOps(app, { metrics: deps.metrics, readOnlyReason: deps.readOnlyReason });
  app.addHook("preHandler", rejectNonFiniteNumbers);

  // Browsers may call every route from another origin (the Blockscout frontend runs on its own); preflights
  // (OPTIONS) are answered for all of them.
  // strictPreflight off: an OPTIONS without preflight headers gets the 204 Blockscout's CORSPlug answers, not a
  // plain-text 400 outside every dialect.
  // The methods are Blockscout's (CORSPlug's defaults): the frontend's PATCH (refetch metadata) needs a preflight.
  // Requested headers are echoed, a superset of CORSPlug's fixed list (the frontend's `updated-gas-oracle`,
  // `show-scam-tokens` and recaptcha headers included).
  await app.register(cors, {
    origin: corsOrigin(deps.config.corsOrigin),
    methods: CORS_METHODS,
    maxAge: 86_400,
    strictPreflight: false,
  });
  await app.register(swagger, {
    openapi: {
      openapi: "3.1.0",
      info: {
        title: "Lookout",
        description:
          "Blockscout-compatible explorer API (/api/v2), proxy-verifier API (/api/v1), Etherscan-compatible /api and Sourcify-compatible /sourcify.",
        version: "0.1.0",
      },
    },
  });
  await app.register(swaggerUi, { routePrefix: "/api/docs" });
  app.get("/api/docs/openapi.json", { schema: { hide: true } }, async () => app.swagger());

  await app.register(healthRoutes, { db: deps.db, sources: deps.health ?? {} });
  await app.register(apiHealthRoutes, {
    db: deps.db,
    sources: deps.health ?? {},
    maxLagBlocks: deps.config.healthMaxLagBlocks ?? 20,
  });
  const explorer = explorerDeps(deps);
  await app.register(apiV2Plugin, { prefix: "/api/v2", deps: explorer });
  // The CSV exports' older paths, which the frontend v2.0.3 still calls.
  await app.register(csvExportV1Routes, { prefix: "/api/v1", deps: explorer });
  const rpcDeps: RpcApiDeps | undefined = deps.verifier && { db: deps.db, chains: deps.verifier.chains };
  const otherApiModules = rpcDeps && rpcApiModules(rpcDeps);
  for (const d of DIALECTS)
    await app.register(d.plugin, {
      prefix: d.prefix,
      db: deps.db,
      api: deps.verifier,
      dialect: d,
      ...(otherApiModules ? { otherApiModules } : {}),
    });
  if (rpcDeps) {
    await app.register(ethRpcPlugin, { deps: rpcDeps });
    await app.register(legacyRoutesPlugin, { deps: rpcDeps });
  }

  if (deps.live) await app.register(liveSocketPlugin, deps.live);

  app.setNotFoundHandler(notFoundHandler);
  app.setErrorHandler(rootErrorHandler);
  return app as unknown as App;
}
