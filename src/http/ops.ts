import type { FastifyInstance } from "fastify";
import type { Metrics } from "../metrics/registry.js";

/**
 * Process-level hooks and routes every HTTP role shares: `GET /metrics` (Prometheus), request latency by route,
 * and, on a database this process cannot write, a clear 503 for every write instead of a database error.
 */
export function registerOps(
  app: FastifyInstance,
  o: { metrics?: Metrics | undefined; readOnlyReason?: string | null | undefined },
): void {
  const { metrics, readOnlyReason } = o;
  if (metrics) {
    app.addHook("onResponse", async (req, reply) => {
      metrics.httpRequest(
        req.method,
        req.routeOptions.url ?? "unmatched",
        reply.statusCode,
        reply.elapsedTime,
      );
    });
    app.get("/metrics", { schema: { hide: true } }, async (_req, reply) => {
      const body = await metrics.registry.metrics();
      return reply.header("content-type", metrics.registry.contentType).send(body);
    });
  }
  if (readOnlyReason) {
    app.addHook("onRequest", async (req, reply) => {
      if (req.method === "GET" || req.method === "HEAD" || req.method === "OPTIONS") return;
      return reply.code(503).send({
        message: `This server is read-only and accepts no writes: ${readOnlyReason}`,
      });
    });
  }
}
