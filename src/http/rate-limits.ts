import rateLimit from "@fastify/rate-limit";
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from "fastify";
import type { Queryable } from "../db/db.js";
import { type ClientPolicy, createClientSlots, unlimitedClient } from "./client-limits.js";
import type { ErrorDialect, ErrorShape } from "./dialects.js";
import { postgresRateLimitStore } from "./rate-limit-store.js";

/** Blockscout's API_RATE_LIMIT_* settings (config/runtime.exs, same names and defaults). */
export type RateLimitSettings = {
  disabled: boolean;
  byIp: { max: number; window: string };
  staticApiKey: string | undefined;
  byKey: { max: number; window: string };
  whitelistedIps: readonly string[];
  byWhitelistedIp: { max: number; window: string };
  client: ClientPolicy;
  /** Expensive requests (CSV, advanced filters, deep Etherscan pages) one client may have running at once. */
  expensiveConcurrency: number;
  /** Expensive requests of every limited client together, at once in this process. */
  expensiveConcurrencyTotal: number;
};

export const DEFAULT_RATE_LIMITS: RateLimitSettings = {
  disabled: false,
  byIp: { max: 300, window: "1m" },
  staticApiKey: undefined,
  byKey: { max: 10, window: "1s" },
  whitelistedIps: [],
  byWhitelistedIp: { max: 25, window: "1s" },
  client: { behindProxy: false },
  expensiveConcurrency: 2,
  expensiveConcurrencyTotal: 4,
};

/** The message of a 503 for an expensive request while the process runs its most of them. */
export const BUSY_WITH_EXPENSIVE = "The server is busy with other exports and filters; please retry";

/** The message of a 429, Blockscout's words without its commercial link. */
export const TOO_MANY_REQUESTS = "Too many requests";

/** Paths that are never limited: probes, metrics and the docs. */
const UNLIMITED_PATHS = /^\/(health|metrics|api\/health|api\/docs)(\/|$|\?)/;

/**
 * Routes with an isolated limit of their own, as Blockscout's rate_limit_config.json has them: CSV exports and
 * token-instance metadata refetches (which make the worker fetch a URL) 50 an hour per client.
 */
const GROUPS: ReadonlyArray<{ id: string; test: RegExp; max: number; window: string }> = [
  { id: "csv", test: /\/csv$|^\/api\/v1\/[a-z-]+-csv$/, max: 50, window: "1h" },
  { id: "refetch-metadata", test: /\/refetch-metadata$/, max: 50, window: "1h" },
];

/** A query parameter as parsed (before any route's schema: these hooks run for every route). */
const queryValue = (req: FastifyRequest, name: string): unknown =>
  req.query && typeof req.query === "object" ? Reflect.get(req.query, name) : undefined;

/** Expensive reads: CSV exports, advanced filters, and Etherscan list pages past 1,000 rows. */
function expensive(req: FastifyRequest): boolean {
  const path = req.url.split("?")[0]!;
  if (/\/csv$|-csv$|^\/api\/v2\/advanced-filters/.test(path)) return true;
  if (path !== "/api" && path !== "/api/") return false;
  const page = Number(queryValue(req, "page") ?? 1);
  const offset = Number(queryValue(req, "offset") ?? 0);
  return Number.isFinite(page) && Number.isFinite(offset) && page * offset > 1000;
}

/** The 429 in the dialect of the path; `/api/eth-rpc` answers a JSON-RPC error. */
function limitedShape(url: string, dialectOf: (url: string) => Pick<ErrorDialect, "error">): ErrorShape {
  if (url.split("?")[0] === "/api/eth-rpc")
    return {
      status: 429,
      body: { jsonrpc: "2.0", id: null, error: { code: -32005, message: TOO_MANY_REQUESTS } },
    };
  // Blockscout's RPC envelope (its RPCView error), as its rate limiter answers `/api`.
  if (/^\/api\/?(\?|$)/.test(url))
    return { status: 429, body: { status: "0", message: TOO_MANY_REQUESTS, result: null } };
  return { status: 429, body: dialectOf(url).error(429, TOO_MANY_REQUESTS).body };
}

/** Keys over their limit the fast path remembers (a flood of distinct addresses cannot grow it further; the rest
 * are answered by the plugin, as before). */
const MAX_OVER = 10_000;

/** The config flag of routes the plugin limits (those registered after it, not opting out). */
const LIMITED = "lookoutRateLimited";

/**
 * The 429 body of a path, serialised once per kind (eth-rpc, `/api`, each dialect): the fast path sends the text.
 */
function limitedBodies(dialectOf: (url: string) => Pick<ErrorDialect, "error">) {
  const byKind = new Map<unknown, string>();
  return (url: string): string => {
    const path = url.split("?")[0]!;
    const kind = path === "/api/eth-rpc" ? "eth-rpc" : /^\/api\/?(\?|$)/.test(url) ? "api" : dialectOf(url);
    let body = byKind.get(kind);
    if (body === undefined) {
      body = JSON.stringify(limitedShape(url, dialectOf).body);
      byKind.set(kind, body);
    }
    return body;
  };
}

/** An error carrying its finished answer: the error handlers send `answer` as it is (dialects.ts). */
const limitedError = (shape: ErrorShape) =>
  Object.assign(new Error(TOO_MANY_REQUESTS), { statusCode: 429, answer: shape });

/**
 * Rate limits as Blockscout has them (@fastify/rate-limit): per client address API_RATE_LIMIT_BY_IP a window, an
 * `apikey` equal to API_RATE_LIMIT_STATIC_API_KEY or a whitelisted address by their own limits, CSV exports and
 * metadata refetches in groups of their own; counted in PostgreSQL (shared by every `serve` process) or in memory
 * on PGlite (one process). Loopback clients are not limited unless behind a proxy. Expensive routes also get a
 * per-client concurrency limit. 429s carry Retry-After, in the dialect of the path.
 */
export async function registerRateLimits(
  app: FastifyInstance,
  s: RateLimitSettings,
  o: { store: Queryable | null; dialectOf: (url: string) => Pick<ErrorDialect, "error"> },
): Promise<void> {
  if (s.disabled) return;
  // A bad interval stops the start, not the first request.
  for (const w of [s.byIp.window, s.byKey.window, s.byWhitelistedIp.window]) parseWindow(w);
  const exempt = (req: FastifyRequest) => unlimitedClient(req, s.client) || UNLIMITED_PATHS.test(req.url);

  const apiKey = (req: FastifyRequest) => {
    const key = queryValue(req, "apikey");
    return typeof key === "string" ? key : undefined;
  };
  const keyOf = (req: FastifyRequest) => {
    const key = apiKey(req);
    if (s.staticApiKey && key === s.staticApiKey) return "key:static";
    if (s.whitelistedIps.includes(req.ip)) return `wip:${req.ip}`;
    return `ip:${req.ip}`;
  };
  /** The key as the plugin counts it: the client's, plus the route's group (CSV, metadata refetch) if any. */
  const fullKey = (req: FastifyRequest) => {
    const group = (req.routeOptions.config as { rateLimit?: { groupId?: string } } | undefined)?.rateLimit
      ?.groupId;
    return group ? keyOf(req) + group : keyOf(req);
  };

  // The fast path for a client already over its limit: the plugin answered its first 429 of the window (below,
  // errorResponseBuilder), and until that window ends every further request of the same key is answered here, in
  // the first onRequest hook after CORS (its headers stay on the 429), with the same status, body and headers, and
  // without the store (on PostgreSQL no round trip), an Error, its stack or the error handler. The windows are
  // fixed, so not counting these requests changes no answer. A flood of 429s then costs what parsing the request
  // and writing a ready text costs.
  const over = new Map<string, { max: number; until: number }>();
  const bodyOf = limitedBodies(o.dialectOf);
  const remember = (key: string, max: number, until: number) => {
    if (over.size >= MAX_OVER) {
      const now = Date.now();
      for (const [k, v] of over) if (v.until <= now) over.delete(k);
      if (over.size >= MAX_OVER) return;
    }
    over.set(key, { max, until });
  };
  app.addHook("onRequest", (req: FastifyRequest, reply: FastifyReply, done: () => void) => {
    if (
      over.size === 0 ||
      !(req.routeOptions.config as unknown as Record<string, unknown> | undefined)?.[LIMITED]
    )
      return done();
    const key = fullKey(req);
    const known = over.get(key);
    if (!known) return done();
    const ttl = known.until - Date.now();
    if (ttl <= 0 || exempt(req)) {
      if (ttl <= 0) over.delete(key);
      return done();
    }
    const seconds = Math.ceil(ttl / 1000);
    // Not calling done(): the reply is sent, no later hook or handler runs.
    void reply
      .code(429)
      .header("x-ratelimit-limit", known.max)
      .header("x-ratelimit-remaining", 0)
      .header("x-ratelimit-reset", seconds)
      .header("retry-after", seconds)
      .header("content-type", "application/json; charset=utf-8")
      .send(bodyOf(req.url));
  });

  const slots = createClientSlots(s.expensiveConcurrency);
  // One key for everyone: a per-client limit alone lets many addresses together hold every connection and core.
  const total = createClientSlots(s.expensiveConcurrencyTotal);
  app.addHook("onRequest", async (req: FastifyRequest, reply: FastifyReply) => {
    if (exempt(req) || !expensive(req)) return;
    if (!slots.take(`${req.ip}`, reply)) {
      reply.header("retry-after", "1");
      throw limitedError(limitedShape(req.url, o.dialectOf));
    }
    if (!total.take("*", reply)) {
      // The service, not this client, is at its limit: 503 in the dialect's shape, as for a busy database.
      const e = o.dialectOf(req.url).error(503, BUSY_WITH_EXPENSIVE, { kind: "unavailable" });
      reply.header("retry-after", "1");
      throw Object.assign(new Error(BUSY_WITH_EXPENSIVE), { statusCode: 503, answer: e });
    }
  });

  // Before the plugin's own onRoute hook: the routes of a group get their limit in their route config.
  app.addHook("onRoute", (route: RouteOptions) => {
    const config = route.config as { rateLimit?: unknown } | undefined;
    if (config?.rateLimit !== false) route.config = { ...config, [LIMITED]: true } as RouteOptions["config"];
    const group = GROUPS.find((g) => g.test.test(route.url ?? ""));
    if (!group) return;
    route.config = {
      ...(route.config as object),
      rateLimit: { max: group.max, timeWindow: group.window, groupId: group.id },
    } as RouteOptions["config"];
  });

  const kindOf = (key: string) => key.slice(0, key.indexOf(":"));
  const windows = { ip: s.byIp, key: s.byKey, wip: s.byWhitelistedIp } as const;
  const ms = (w: string) => parseWindow(w);
  await app.register(rateLimit, {
    global: true,
    hook: "onRequest",
    ...(o.store ? { store: postgresRateLimitStore(o.store) } : {}),
    // A database that cannot count does not stop the API.
    skipOnError: true,
    allowList: (req) => exempt(req),
    keyGenerator: keyOf,
    max: (_req, key) => windows[kindOf(key) as keyof typeof windows]?.max ?? s.byIp.max,
    timeWindow: (_req, key) => ms((windows[kindOf(key) as keyof typeof windows] ?? s.byIp).window),
    errorResponseBuilder: (req, ctx) => {
      // Bans are not configured: every answer here is a 429 that holds until the window ends.
      if (ctx.ttl > 0) remember(fullKey(req), ctx.max, Date.now() + ctx.ttl);
      return limitedError(limitedShape(req.url, o.dialectOf));
    },
  });
}

/** Blockscout's time intervals: `300ms`, `1s`, `1m`, `1h`, `1d` (a bare number is milliseconds). */
export function parseWindow(w: string): number {
  const m = /^(\d+)\s*(ms|s|m|h|d)?$/.exec(w.trim());
  if (!m) throw new Error(`Invalid rate-limit time interval "${w}" (expected e.g. 1s, 1m, 1h)`);
  const n = Number(m[1]);
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[m[2] ?? "ms"]!;
  return n * unit;
}
