import { type Static, Type } from "@sinclair/typebox";
import type { FastifyPluginAsync } from "fastify";
import type { Db } from "../db/db.js";
import type { Progress } from "../indexer/progress.js";

export type HealthSources = {
  /** Returns the node's head; throws when the node cannot be reached. */
  rpcHead?: () => Promise<number>;
  progress?: Progress;
  chainId?: () => number | null;
};

const HealthResponse = Type.Object({
  status: Type.Union([Type.Literal("ok"), Type.Literal("degraded")]),
  database: Type.Object({
    ok: Type.Boolean(),
    latency_ms: Type.Number(),
    error: Type.Optional(Type.String()),
  }),
  rpc: Type.Object({
    ok: Type.Boolean(),
    head: Type.Union([Type.Integer(), Type.Null()]),
    error: Type.Optional(Type.String()),
  }),
  indexer: Type.Object({
    chain_id: Type.Union([Type.Integer(), Type.Null()]),
    height: Type.Union([Type.Integer(), Type.Null()]),
    head: Type.Union([Type.Integer(), Type.Null()]),
    lag: Type.Union([Type.Integer(), Type.Null()]),
    caught_up: Type.Boolean(),
    blocks_per_second: Type.Number(),
    last_error: Type.Union([Type.String(), Type.Null()]),
  }),
});
type HealthResponse = Static<typeof HealthResponse>;
const GrpcHealthResponse = Type.Object({
  status: Type.Union([Type.Literal("SERVING"), Type.Literal("NOT_SERVING")]),
});

const timeout = <T>(p: Promise<T>, ms: number) =>
  Promise.race([
    p,
    new Promise<never>((_, rej) => setTimeout(() => rej(new Error(`no answer in ${ms} ms`)), ms)),
  ]);

/** `GET /health`: liveness plus database and RPC reachability and the indexer's height and lag. */
export const healthRoutes: FastifyPluginAsync<{ db: Db; sources: HealthSources }> = async (
  app,
  { db, sources },
) => {
  app.get(
    "/health",
    {
      schema: {
        tags: ["health"],
        querystring: Type.Object({ service: Type.Optional(Type.String()) }),
        response: {
          200: Type.Union([HealthResponse, GrpcHealthResponse]),
          503: Type.Union([HealthResponse, GrpcHealthResponse]),
        },
      },
    },
    async (req, reply) => {
      const t0 = performance.now();
      const database: HealthResponse["database"] = await timeout(db.query("select 1"), 2000)
        .then(() => ({ ok: true, latency_ms: Math.round(performance.now() - t0) }))
        .catch((e: Error) => ({
          ok: false,
          latency_ms: Math.round(performance.now() - t0),
          error: e.message,
        }));
      // `?service=` is the gRPC health check's request (eth-bytecode-db's Health.Check over HTTP): its shape.
      if ((req.query as { service?: string }).service !== undefined) {
        return reply.code(database.ok ? 200 : 503).send({ status: database.ok ? "SERVING" : "NOT_SERVING" });
      }
      let rpc: HealthResponse["rpc"] = { ok: true, head: null };
      if (sources.rpcHead) {
        rpc = await timeout(sources.rpcHead(), 2000)
          .then((head) => ({ ok: true, head }))
          .catch((e: Error) => ({ ok: false, head: null, error: e.message.split("\n")[0]! }));
      }
      const p = sources.progress?.snapshot();
      const head = rpc.head ?? p?.head ?? null;
      const height = p?.height ?? null;
      const body: HealthResponse = {
        status: database.ok && rpc.ok ? "ok" : "degraded",
        database,
        rpc,
        indexer: {
          chain_id: sources.chainId?.() ?? null,
          height,
          head,
          lag: head !== null && height !== null ? Math.max(0, head - height) : null,
          caught_up: p?.caughtUp ?? false,
          blocks_per_second: Number((p?.blocksPerSecond ?? 0).toFixed(2)),
          last_error: sources.progress?.lastError ?? null,
        },
      };
      return reply.code(database.ok ? 200 : 503).send(body);
    },
  );
};
