import type { FastifyInstance } from "fastify";
import type { Config } from "../config/config.js";
import { within } from "../util/shutdown.js";

export type HttpLimits = Pick<
  Config,
  | "httpHeadersTimeoutMs"
  | "httpBodyTimeoutMs"
  | "httpRequestTimeoutMs"
  | "httpKeepAliveTimeoutMs"
  | "httpMaxRequestsPerSocket"
>;

/**
 * Fastify's server options from the limits: a client that stops sending (headers, body) or a connection that stays
 * silent is closed, so no request holds a socket, or a shutdown, for long. Node measures the body timeout as the
 * time to receive the whole request (`requestTimeout`, never shorter than the headers timeout) and checks both
 * every `connectionsCheckingInterval` (30 s by default: too coarse for short limits, hence a tenth of the shortest).
 */
export function serverTimeouts(l: Partial<HttpLimits>) {
  const headers = l.httpHeadersTimeoutMs;
  const body = l.httpBodyTimeoutMs ? Math.max(l.httpBodyTimeoutMs, headers ?? 0) : undefined;
  const shortest = Math.min(headers ?? Infinity, body ?? Infinity);
  return {
    ...(l.httpRequestTimeoutMs ? { connectionTimeout: l.httpRequestTimeoutMs } : {}),
    ...(body ? { requestTimeout: body } : {}),
    ...(l.httpKeepAliveTimeoutMs ? { keepAliveTimeout: l.httpKeepAliveTimeoutMs } : {}),
    ...(l.httpMaxRequestsPerSocket ? { maxRequestsPerSocket: l.httpMaxRequestsPerSocket } : {}),
    http: {
      ...(headers ? { headersTimeout: headers } : {}),
      ...(body ? { requestTimeout: body } : {}),
      ...(Number.isFinite(shortest)
        ? { connectionsCheckingInterval: Math.max(50, Math.min(30_000, Math.floor(shortest / 10))) }
        : {}),
    },
  };
}

/** Closes the server: requests in flight get `graceMs` to finish, then every connection is cut (a client still
 * sending a body would otherwise hold the shutdown up to the body timeout). */
export async function closeApp(app: FastifyInstance, graceMs = 2_000): Promise<void> {
  const closing = app.close();
  if (!(await within(closing, graceMs))) {
    app.server.closeAllConnections();
    await closing;
  }
}
