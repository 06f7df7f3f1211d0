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
import type { Db, Queryable } from "../db/db.js";
import { apiV2Plugin } from "../explorer/api.js";
import { coinBalanceHistoryDays } from "../explorer/coin-balance/service.js";
import { csvExportV1Routes } from "../explorer/csv-export/routes.js";
import type { ExplorerDeps } from "../explorer/deps.js";
import { loadPublicTags } from "../explorer/objects/tags.js";
import {
  STATS_SERVICE_DIALECT,
  STATS_SERVICE_PREFIX,
  statsServiceRoutes,
} from "../explorer/stats-service/routes.js";
import { GRAPHQL_ERRORS } from "../graphql/errors.js";
import { graphqlPlugin } from "../graphql/plugin.js";
import { trustProxyOption } from "../http/client-limits.js";
import { decodeColonInPath } from "../http/colon-url.js";
import { createDialectHandlers, plainDialect, rejectNonFiniteNumbers } from "../http/dialects.js";
import { registerOps } from "../http/ops.js";
import { DEFAULT_RATE_LIMITS, type RateLimitSettings, registerRateLimits } from "../http/rate-limits.js";
import { type HttpLimits, serverTimeouts } from "../http/timeouts.js";
import { type LiveSocketOptions, liveSocketPlugin, registerWebsocket } from "../live/socket.js";
import type { Metrics } from "../metrics/registry.js";
import { type ChainSource, singleChainSource } from "../multichain/chains.js";
import { MULTICHAIN_DIALECT, MULTICHAIN_PREFIX, multichainRoutes } from "../multichain/routes.js";
import { DEFAULT_NODE_CALL_POLICY } from "../rpc-api/eth-rpc/node-call.js";
import { ethRpcPlugin } from "../rpc-api/eth-rpc/plugin.js";
import { legacyRoutesPlugin } from "../rpc-api/legacy.js";
import { API_DIALECT, rpcApiPlugin } from "../rpc-api/plugin.js";
import type { RpcApiDeps } from "../rpc-api/reply.js";
import { apiV1AliasesPlugin } from "../rpc-api/v1-aliases.js";
import { metadataFetcherConfigFromEnv } from "../token-workers/metadata/index.js";
import type { Logger } from "../util/logger.js";
import type { RequestActivity } from "../util/request-activity.js";
import type { VerifierApi } from "../verifier/api.js";
import { DIALECTS, PER_CHAIN_DIALECTS } from "../verifier-apis/index.js";
import { apiHealthRoutes } from "./api-health.js";
import { type HealthSources, healthRoutes } from "./health.js";

export type AppDeps = {
  db: Db;
  config: Pick<Config, "bodyLimit"> &
    Partial<
      Pick<
        Config,
        "coinBalanceHistoryDays" | "corsOrigin" | "healthMaxLagBlocks" | "chainName" | ApiLimitKey
      > &
        HttpLimits &
        GraphqlSettings
    >;
  /**
   * Where rate limits are counted: a PostgreSQL database shared by every `serve` process (its api_rate_limits
   * table); without it, in this process's memory (PGlite, tests).
   */
  rateLimitDb?: Queryable | null;
  /** Counts the requests in flight for the indexer of the same process, whose history gives way to them. */
  requestActivity?: RequestActivity;
  logger?: Logger | false;
  health?: HealthSources;
  /** Address-object options of the explorer API (public tags, gateways, verified-contract lookup). */
  explorer?: Pick<ExplorerDeps, "verified" | "tags" | "gateways">;
  /**
   * The verifier: without it only eth-bytecode-db's searches are served (no `/api`, no eth-rpc); without its
   * `verify`, no synchronous verification; without its `jobs`, not the Sourcify (`/sourcify`) API, the verify form
   * and `/api`'s verification actions.
   */
  verifier?: VerifierApi;
  /** Live updates: without it the socket `/socket/v2/websocket` is not served. */
  live?: LiveSocketOptions;
  /** Serves `/metrics` and records request latency by route. */
  metrics?: Metrics;
  /** Set when the database cannot be written (a read-only role): every write answers 503 with this reason. */
  readOnlyReason?: string | null;
  /**
   * The GraphQL API's reads (on PostgreSQL a pool with API_GRAPHQL_STATEMENT_TIMEOUT_MS; roles/http.ts opens it);
   * absent: `db`.
   */
  graphqlDb?: Queryable;
  /**
   * The chains of the cross-chain API (the multichain aggregator's, under /multichain); absent: the one chain `db`
   * indexes, named `config.chainName`.
   */
  multichainChains?: ChainSource;
  /** Told of every route as it is registered (the route fuzz test enumerates the API with it). */
  onRoute?: (route: RouteOptions) => void;
  /**
   * A multichain deployment (issue 40): the first chain (`db`, `health`, `live` above) is served at the root and
   * under `/chains/{rootChainId}`; each of `chains` under `/chains/{id}` only. The verification APIs stay at the
   * root (their requests carry the chain id).
   */
  rootChainId?: string | null;
  chains?: readonly ChainRouteDeps[];
};

/** What one chain's routes read: its data (a handle on its schema), its indexer's health, its socket. */
export type ChainRouteDeps = {
  id: string;
  db: Db;
  health?: HealthSources;
  live?: LiveSocketOptions;
  explorer?: Pick<ExplorerDeps, "verified">;
  /** The chain's GraphQL reads (the deployment's GraphQL pool on its schema); absent: `db`. */
  graphqlDb?: Queryable;
};

type GraphqlSettings = Pick<
  Config,
  | "graphqlEnabled"
  | "graphiqlEnabled"
  | "graphqlMaxComplexity"
  | "graphqlTokenLimit"
  | "graphqlMaxDepth"
  | "graphqlMaxPageSize"
  | "graphqlDefaultTransactionHash"
>;

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
function explorerDeps(deps: AppDeps, chain: ChainRouteDeps): ExplorerDeps {
  const progress = chain.health?.progress;
  return {
    db: chain.db,
    ...(chain.explorer?.verified ? { verified: chain.explorer.verified } : {}),
    tags: deps.explorer?.tags ?? loadPublicTags(process.env.PUBLIC_TAGS_FILE),
    gateways: deps.explorer?.gateways ?? metadataFetcherConfigFromEnv(process.env).gateways,
    coinBalanceHistoryDays: deps.config.coinBalanceHistoryDays || coinBalanceHistoryDays(process.env),
    ...(progress ? { caughtUp: () => progress.snapshot().caughtUp } : {}),
  };
}

/** The settings of the public API's limits (rate limits, concurrency, node calls). */
type ApiLimitKey =
  | "apiRateLimitDisabled"
  | "apiRateLimitByIp"
  | "apiRateLimitByIpTimeInterval"
  | "apiRateLimitStaticApiKey"
  | "apiRateLimitByKey"
  | "apiRateLimitByKeyTimeInterval"
  | "apiRateLimitWhitelistedIps"
  | "apiRateLimitByWhitelistedIp"
  | "apiRateLimitByWhitelistedIpTimeInterval"
  | "apiRateLimitIsBlockscoutBehindProxy"
  | "apiExpensiveConcurrencyPerClient"
  | "apiExpensiveConcurrencyTotal"
  | "ethRpcGasCap"
  | "ethRpcCallTimeoutMs"
  | "ethRpcConcurrencyPerClient";

/** The rate-limit settings from the configuration (Blockscout's defaults for what it leaves out). */
export function rateLimitSettings(c: AppDeps["config"]): RateLimitSettings {
  const d = DEFAULT_RATE_LIMITS;
  return {
    disabled: c.apiRateLimitDisabled ?? d.disabled,
    byIp: { max: c.apiRateLimitByIp ?? d.byIp.max, window: c.apiRateLimitByIpTimeInterval ?? d.byIp.window },
    staticApiKey: c.apiRateLimitStaticApiKey ?? d.staticApiKey,
    byKey: {
      max: c.apiRateLimitByKey ?? d.byKey.max,
      window: c.apiRateLimitByKeyTimeInterval ?? d.byKey.window,
    },
    whitelistedIps: c.apiRateLimitWhitelistedIps ?? d.whitelistedIps,
    byWhitelistedIp: {
      max: c.apiRateLimitByWhitelistedIp ?? d.byWhitelistedIp.max,
      window: c.apiRateLimitByWhitelistedIpTimeInterval ?? d.byWhitelistedIp.window,
    },
    client: { behindProxy: c.apiRateLimitIsBlockscoutBehindProxy ?? d.client.behindProxy },
    expensiveConcurrency: c.apiExpensiveConcurrencyPerClient ?? d.expensiveConcurrency,
    expensiveConcurrencyTotal: c.apiExpensiveConcurrencyTotal ?? d.expensiveConcurrencyTotal,
  };
}

/** Framework errors by path: every dialect's (served or not), `/api`'s, GraphQL's, the stats service's, the docs `{message}`. */
const dialectHandlers = createDialectHandlers([
  ...DIALECTS,
  API_DIALECT,
  plainDialect(["/api/docs"]),
  GRAPHQL_ERRORS,
  STATS_SERVICE_DIALECT,
  MULTICHAIN_DIALECT,
]);

/**
 * One chain's API: health, /api/v2, the stats service, the CSV exports, Etherscan's /api, eth-rpc, the legacy
 * routes and the socket, reading that chain's data.
 */
async function registerChainRoutes(app: App, deps: AppDeps, chain: ChainRouteDeps): Promise<void> {
  await app.register(healthRoutes, { db: chain.db, sources: chain.health ?? {} });
  await app.register(apiHealthRoutes, {
    db: chain.db,
    sources: chain.health ?? {},
    maxLagBlocks: deps.config.healthMaxLagBlocks ?? 20,
  });
  const explorer = explorerDeps(deps, chain);
  await app.register(apiV2Plugin, { prefix: "/api/v2", deps: explorer });
  // Blockscout's stats service (charts and counters), kept by the indexer's stats stage.
  await app.register(statsServiceRoutes, {
    prefix: STATS_SERVICE_PREFIX,
    deps: { db: chain.db, coinSymbol: process.env.COIN || "ETH" },
  });
  // The CSV exports' older paths, which the frontend v2.0.3 still calls.
  await app.register(csvExportV1Routes, { prefix: "/api/v1", deps: explorer });
  const verifier = deps.verifier;
  const jobs = verifier?.jobs;
  const rpcDeps: RpcApiDeps | undefined = verifier && {
    db: chain.db,
    chains: chain.id && chain.db !== deps.db ? defaultingTo(verifier.chains, chain.id) : verifier.chains,
    nodeCalls: {
      gasCap: deps.config.ethRpcGasCap ?? DEFAULT_NODE_CALL_POLICY.gasCap,
      timeoutMs: deps.config.ethRpcCallTimeoutMs ?? DEFAULT_NODE_CALL_POLICY.timeoutMs,
    },
    ...(jobs ? { verification: { ...verifier, jobs } } : {}),
  };
  if (rpcDeps) {
    await app.register(rpcApiPlugin, { deps: rpcDeps });
    await app.register(ethRpcPlugin, {
      deps: rpcDeps,
      limits: { concurrencyPerClient: deps.config.ethRpcConcurrencyPerClient ?? 4 },
    });
    await app.register(legacyRoutesPlugin, { deps: rpcDeps });
    await app.register(apiV1AliasesPlugin, { deps: rpcDeps });
  }
  if (chain.live) await app.register(liveSocketPlugin, chain.live);
}

/**
 * The verifier's chains as a further chain's routes see them: a request naming no chain means this one (eth-rpc's
 * node calls, Etherscan's actions without `chainid`), a named one is looked up among all. Read per request, as the
 * verifier's map (it changes when the indexed chain joins).
 */
function defaultingTo<V>(chains: ReadonlyMap<string, V>, id: string): ReadonlyMap<string, V> {
  return {
    get: (k) => chains.get(k),
    has: (k) => chains.has(k),
    keys: () => chains.keys(),
    // pickChain takes the only value when nothing is named.
    values: () => {
      const own = chains.get(id);
      return (own === undefined ? [] : [own]).values();
    },
    entries: () => chains.entries(),
    forEach: (fn) => chains.forEach(fn),
    get size() {
      return chains.size;
    },
    [Symbol.iterator]: () => chains[Symbol.iterator](),
  };
}

/** Builds the HTTP application; never listens (main.ts does), so tests use `inject`. */
export async function buildApp(deps: AppDeps): Promise<App> {
  const { notFoundHandler, rootErrorHandler, frameworkErrorHandler, clientErrorHandler, dialectOf } =
    dialectHandlers;
  const limits = rateLimitSettings(deps.config);
  const app = Fastify({
    loggerInstance: (deps.logger || undefined) as FastifyBaseLogger | undefined,
    bodyLimit: deps.config.bodyLimit,
    // Blockscout clients send `?type=ERC-721,ERC-1155` etc.; keep query parsing standard and predictable.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 1000 },
    rewriteUrl: (req) => decodeColonInPath(req.url ?? "/"),
    ajv: { customOptions: { coerceTypes: true, removeAdditional: false, allErrors: false } },
    logController: new LogController({ disableRequestLogging: true }),
    ...serverTimeouts(deps.config),
    // Behind a reverse proxy, the client is the address the proxy saw (its X-Forwarded-For entry).
    trustProxy: trustProxyOption(limits.client),
    // Errors before any API plugin sees the request, in the dialect of the path (dialects.ts).
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
  }).withTypeProvider<TypeBoxTypeProvider>();
  // First: plugins registered below without a handler of their own (eth-rpc, legacy routes) inherit it; set after
  // them, they kept Fastify's default error body.
  app.setErrorHandler(rootErrorHandler);
  if (deps.onRoute) app.addHook("onRoute", deps.onRoute);
  const activity = deps.requestActivity;
  if (activity)
    app.addHook("onRequest", (req, reply, done) => {
      // A websocket's upgrade is no request to give way to: its response closes only with the socket.
      if (req.headers.upgrade === undefined) {
        activity.begin();
        // 'close': once the response is written or the client went away, whichever way the request ended.
        reply.raw.once("close", () => activity.end());
      }
      done();
    });
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
  await registerRateLimits(app, limits, { store: deps.rateLimitDb ?? null, dialectOf });
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
  // Blockscout serves its document at /api/v2/openapi (OpenApiSpex's RenderSpec): the same document here.
  app.get("/api/v2/openapi", { schema: { hide: true } }, async () => app.swagger());

  // Blockscout's multichain aggregator, over every chain of the deployment (the one chain `db` unless told
  // otherwise); once, at the root.
  await app.register(multichainRoutes, {
    prefix: MULTICHAIN_PREFIX,
    chains: deps.multichainChains ?? singleChainSource(deps.db, deps.config.chainName ?? "Local"),
  });
  const verifier = deps.verifier;
  for (const d of DIALECTS)
    await app.register(d.plugin, { prefix: d.prefix, db: deps.db, api: verifier, dialect: d });
  const root: ChainRouteDeps = {
    id: deps.rootChainId ?? "",
    db: deps.db,
    ...(deps.health ? { health: deps.health } : {}),
    ...(deps.live ? { live: deps.live } : {}),
    ...(deps.explorer?.verified ? { explorer: { verified: deps.explorer.verified } } : {}),
  };
  // Every chain of a deployment configured with CHAINS_CONFIG under /chains/{id}, the first (or only) one too.
  const prefixed = deps.chains ? [...(deps.rootChainId ? [root] : []), ...deps.chains] : [];
  // Several chains' sockets share one websocket support, registered above them all before the root's socket: the
  // root's would otherwise register its own, a second upgrade listener that fails on every connection.
  if (prefixed.length && deps.live) await registerWebsocket(app);
  await registerChainRoutes(app, deps, root);
  await registerGraphql(app, deps.config, deps.graphqlDb ?? deps.db, "");
  for (const chain of prefixed)
    await app.register(
      async (scope) => {
        // The same routes again per chain: the OpenAPI document lists the root's once.
        scope.addHook("onRoute", (r) => {
          r.schema = { ...r.schema, hide: true };
        });
        await registerChainRoutes(scope as unknown as App, deps, chain);
        if (verifier)
          for (const d of PER_CHAIN_DIALECTS)
            await scope.register(d.plugin, {
              prefix: d.prefix,
              db: deps.db,
              api: { ...verifier, chains: defaultingTo(verifier.chains, chain.id) },
              dialect: d,
            });
        const graphqlDb = chain === root ? deps.graphqlDb : chain.graphqlDb;
        await registerGraphql(
          scope as unknown as App,
          deps.config,
          graphqlDb ?? chain.db,
          `/chains/${chain.id}`,
        );
      },
      { prefix: `/chains/${chain.id}` },
    );

  // A chain prefix of no chain of this deployment is a path no API claims: 404 `{message}`, not the answer of the API
  // the rest of the path names (`/chains/999/api/v2/…` is no unknown API v2 action of some chain).
  const served = new Set(prefixed.map((c) => c.id));
  const unknownChain = plainDialect([]);
  app.setNotFoundHandler((req, reply) => {
    const id = CHAIN_PREFIX.exec(req.url)?.[1];
    if (id === undefined || served.has(id)) return notFoundHandler(req, reply);
    const e = unknownChain.error(404, "Not found", { kind: "not-found", method: req.method });
    return reply.code(e.status).send(e.body);
  });
  return app as unknown as App;
}

/** `/chains/{id}` at the start of a request's URL: the chain id. */
const CHAIN_PREFIX = /^\/chains\/([^/?#]*)(?=[/?#]|$)/i;

/** Blockscout's GraphQL API and GraphiQL page, on by default as there (API_GRAPHQL_ENABLED); Blockscout's limits. */
async function registerGraphql(app: App, c: AppDeps["config"], db: Queryable, basePath: string) {
  if (c.graphqlEnabled === false) return;
  await app.register(graphqlPlugin, {
    db,
    limits: {
      maxComplexity: c.graphqlMaxComplexity ?? 100,
      maxDepth: c.graphqlMaxDepth ?? 12,
      maxPageSize: c.graphqlMaxPageSize ?? 100,
    },
    tokenLimit: c.graphqlTokenLimit ?? 1000,
    graphiql: c.graphiqlEnabled !== false,
    defaultTransactionHash: c.graphqlDefaultTransactionHash,
    basePath,
  });
}
