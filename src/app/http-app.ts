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
import { type ApiV2Options, apiV2Plugin } from "../explorer/api.js";
import { decodeColonInPath } from "../http/colon-url.js";
import { createDialectHandlers, plainDialect, rejectNonFiniteNumbers } from "../http/dialects.js";
import { registerOps } from "../http/ops.js";
import { type HttpLimits, serverTimeouts } from "../http/timeouts.js";
import { type LiveSocketOptions, liveSocketPlugin } from "../live/socket.js";
import type { Metrics } from "../metrics/registry.js";
import type { Logger } from "../util/logger.js";
import type { VerifierApi } from "../verifier/api.js";
import { DIALECTS } from "../verifier-apis/index.js";
import { type HealthSources, healthRoutes } from "./health.js";

export type AppDeps = {
  db: Db;
  config: Pick<Config, "bodyLimit"> &
    Partial<Pick<Config, "coinBalanceHistoryDays" | "corsOrigin"> & HttpLimits>;
  logger?: Logger | false;
  health?: HealthSources;
  /** Address-object options of the explorer API (public tags, gateways, verified-contract lookup). */
  explorer?: ApiV2Options["explorer"];
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

/** `CORS_ORIGIN` as @fastify/cors takes it: any origin (`*`), or the listed ones (echoed back when they match). */
export function corsOrigin(list: readonly string[] | undefined): string | string[] {
  if (!list || list.length === 0 || list.includes("*")) return "*";
  return [...list];
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
  await app.register(cors, { origin: corsOrigin(deps.config.corsOrigin), maxAge: 86_400 });
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
  await app.register(apiV2Plugin, {
    prefix: "/api/v2",
    db: deps.db,
    ...(deps.explorer ? { explorer: deps.explorer } : {}),
    ...(deps.health?.progress ? { caughtUp: () => deps.health!.progress!.snapshot().caughtUp } : {}),
    ...(deps.config.coinBalanceHistoryDays
      ? { coinBalanceHistoryDays: deps.config.coinBalanceHistoryDays }
      : {}),
  });
  for (const d of DIALECTS)
    await app.register(d.plugin, { prefix: d.prefix, db: deps.db, api: deps.verifier, dialect: d });

  if (deps.live) await app.register(liveSocketPlugin, deps.live);

  app.setNotFoundHandler(notFoundHandler);
  app.setErrorHandler(rootErrorHandler);
  return app as unknown as App;
}
