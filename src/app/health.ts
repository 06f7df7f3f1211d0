import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { type Static, Type } from "@sinclair/typebox";
import { indexedRange } from "../chain-store/checkpoint.js";
import type { Db } from "../db/db.js";
import type { Progress } from "../indexer/pipeline/progress.js";

export type HealthSources = {
  /** The process's role (`start`, `index`, `serve`, `work`). */
  role?: string;
  /** Returns the node's head; throws when the node cannot be reached. */
  rpcHead?: () => Promise<number>;
  progress?: Progress;
  chainId?: () => number | null;
  /** Whether this process can write to its database (false on a read-only role or a replica). */
  writable?: () => boolean;
  /** The role needs to write to do its job (index, work): unwritable answers 503. */
  requiresWrite?: boolean;
  /** The indexing lease, on processes that index: held (active) or not (standby). */
  lease?: () => { held: boolean; kind: string; losses?: number; last_lost_at?: string | null };
};

const HealthResponse = Type.Object({
  status: Type.Union([Type.Literal("ok"), Type.Literal("degraded")]),
  role: Type.Union([Type.String(), Type.Null()]),
  database: Type.Object({
    ok: Type.Boolean(),
    writable: Type.Boolean(),
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
    lease: Type.Union([
      Type.Object({
        held: Type.Boolean(),
        kind: Type.String(),
        // Holds lost since the process started (a dropped lock connection), and the last one's time: the process
        // went back to standby and took the lease again when it could.
        losses: Type.Optional(Type.Integer()),
        last_lost_at: Type.Optional(Type.Union([Type.String(), Type.Null()])),
      }),
      Type.Null(),
    ]),
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

/**
 * `GET /health`: the role, database reachability and writability, RPC reachability, the indexed height (read from
 * the database) and lag, and the indexing lease. 503 when the process cannot do its job (database unreachable, or
 * not writable for a role that writes), so a load balancer can route around it.
 */
export const healthRoutes: FastifyPluginAsyncTypebox<{ db: Db; sources: HealthSources }> = async (
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
      // The height comes from the database, so every role (serve too) reports what is really indexed.
      let stored: { chain_id: number; last_block: number | null } | undefined;
      const writable = sources.writable?.() ?? true;
      const database: HealthResponse["database"] = await timeout(indexedRange(db), 2000)
        .then((row) => {
          stored = row ? { chain_id: row.chainId, last_block: row.lastBlock } : undefined;
          return { ok: true, writable, latency_ms: Math.round(performance.now() - t0) };
        })
        .catch((e: Error) => ({
          ok: false,
          writable: false,
          latency_ms: Math.round(performance.now() - t0),
          error: e.message,
        }));
      // `?service=` is the gRPC health check's request (eth-bytecode-db's Health.Check over HTTP): its shape.
      if (req.query.service !== undefined) {
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
      const height = stored?.last_block ?? p?.height ?? null;
      const canWork = database.ok && (database.writable || !sources.requiresWrite);
      const body: HealthResponse = {
        status: canWork && rpc.ok ? "ok" : "degraded",
        role: sources.role ?? null,
        database,
        rpc,
        indexer: {
          chain_id: stored?.chain_id ?? sources.chainId?.() ?? null,
          height,
          head,
          lag: head !== null && height !== null ? Math.max(0, head - height) : null,
          caught_up: p?.caughtUp ?? false,
          blocks_per_second: Number((p?.blocksPerSecond ?? 0).toFixed(2)),
          last_error: sources.progress?.lastError ?? null,
          lease: sources.lease?.() ?? null,
        },
      };
      return reply.code(canWork ? 200 : 503).send(body);
    },
  );
};
