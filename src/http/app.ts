import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from "fastify";
import type { Config } from "../config/config.js";
import type { Db } from "../db/db.js";
import type { Logger } from "../util/logger.js";
import { apiV1Plugin, type VerifierHttpDeps } from "./api-v1/plugin.js";
import { type ApiV2Options, apiV2Plugin } from "./api-v2/plugin.js";
import {
  clientErrorHandler,
  frameworkErrorHandler,
  notFoundHandler,
  rejectNonFiniteNumbers,
  rootErrorHandler,
} from "./dialects.js";
import type { VerificationApiDeps } from "./etherscan/deps.js";
import { etherscanPlugin } from "./etherscan/plugin.js";
import { type HealthSources, healthRoutes } from "./health.js";
import { sourcifyPlugin } from "./sourcify/plugin.js";
import { type HttpLimits, serverTimeouts } from "./timeouts.js";

export type AppDeps = {
  db: Db;
  config: Pick<Config, "bodyLimit"> & Partial<Pick<Config, "coinBalanceHistoryDays"> & HttpLimits>;
  logger?: Logger | false;
  health?: HealthSources;
  /** Address-object options of the explorer API (public tags, gateways, verified-contract lookup). */
  explorer?: ApiV2Options["explorer"];
  /** The verifier's chains and compilers; without it `/api/v1` is not served. */
  verifier?: VerifierHttpDeps;
  /** Verification jobs and chains; without it the Etherscan (`/api`) and Sourcify (`/sourcify`) APIs are not served. */
  verificationApis?: VerificationApiDeps;
};

// The app as route modules see it: any logger, TypeBox schemas inferring handler types.
export type App = FastifyInstance;

/** Builds the HTTP application; never listens (main.ts does), so tests use `inject`. */
export async function buildApp(deps: AppDeps): Promise<App> {
  const app = Fastify({
    loggerInstance: (deps.logger || undefined) as FastifyBaseLogger | undefined,
    bodyLimit: deps.config.bodyLimit,
    // Blockscout clients send `?type=ERC-721,ERC-1155` etc.; keep query parsing standard and predictable.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 1000 },
    ajv: { customOptions: { coerceTypes: true, removeAdditional: false, allErrors: false } },
    logController: new LogController({ disableRequestLogging: true }),
    ...serverTimeouts(deps.config),
    // Errors before any API plugin sees the request, in the dialect of the path (dialects.ts).
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.addHook("preHandler", rejectNonFiniteNumbers);

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
    ...(deps.config.coinBalanceHistoryDays
      ? { coinBalanceHistoryDays: deps.config.coinBalanceHistoryDays }
      : {}),
  });
  if (deps.verifier) await app.register(apiV1Plugin, { prefix: "/api/v1", verifier: deps.verifier });
  if (deps.verificationApis) {
    await app.register(etherscanPlugin, { deps: deps.verificationApis });
    await app.register(sourcifyPlugin, { prefix: "/sourcify", deps: deps.verificationApis });
  }

  app.setNotFoundHandler(notFoundHandler);
  app.setErrorHandler(rootErrorHandler);
  return app as unknown as App;
}
