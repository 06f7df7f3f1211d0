import { type TSchema, Type } from "@sinclair/typebox";
import type { FastifyPluginAsync, FastifyReply } from "fastify";
import { indexedHeadBlock } from "../chain-store/checkpoint.js";
import type { Db } from "../db/db.js";
import type { HealthSources } from "./health.js";

/** Blockscout's error codes of its health answers (Explorer.Chain.Health.Helper). */
const NO_NEW_ITEMS = 5001;
const NO_ITEMS = 5002;

type Status = {
  healthy: boolean;
  db: { number: string; timestamp: string };
  node: { number: string };
  error: { code: number; message: string } | null;
};

const within = <T>(p: Promise<T>, ms: number) =>
  Promise.race([
    p,
    new Promise<never>((_, rej) => setTimeout(() => rej(new Error(`no answer in ${ms} ms`)), ms)),
  ]);

/** Elixir's DateTime.to_string of a second-precision time ("2024-01-02 03:04:05Z"). */
const elixirTime = (d: Date) =>
  d
    .toISOString()
    .replace("T", " ")
    .replace(/\.\d{3}Z$/, "Z");

/**
 * The index's state as Blockscout judges block indexing: unhealthy without blocks, or when the node's head is more
 * than `maxLagBlocks` ahead of the newest indexed block; the database unreachable is unhealthy too.
 */
async function indexStatus(db: Db, sources: HealthSources, maxLagBlocks: number): Promise<Status> {
  let row: { number: string; timestamp: Date } | null;
  try {
    row = await within(indexedHeadBlock(db), 2000);
  } catch (e) {
    const message = `The database cannot be reached: ${(e as Error).message.split("\n")[0]}`;
    return {
      healthy: false,
      db: { number: "", timestamp: "" },
      node: { number: "" },
      error: { code: NO_ITEMS, message },
    };
  }
  let head: number | null = sources.progress?.snapshot().head ?? null;
  if (sources.rpcHead) head = await within(sources.rpcHead(), 2000).catch(() => head);
  const dbPart = row
    ? { number: String(row.number), timestamp: elixirTime(row.timestamp) }
    : { number: "", timestamp: "" };
  const node = { number: head === null ? "" : String(head) };
  if (!row)
    return {
      healthy: false,
      db: dbPart,
      node,
      error: { code: NO_ITEMS, message: "There are no blocks in the DB." },
    };
  const lag = head === null ? 0 : head - Number(row.number);
  if (lag > maxLagBlocks) {
    const message = `The index is ${lag} blocks behind the node (more than ${maxLagBlocks}). Check the indexer, the JSON RPC node or the DB.`;
    return { healthy: false, db: dbPart, node, error: { code: NO_NEW_ITEMS, message } };
  }
  return { healthy: true, db: dbPart, node, error: null };
}

const Latest = Type.Object({ number: Type.String(), timestamp: Type.String() });
const HealthError = Type.Union([Type.Object({ code: Type.Integer(), message: Type.String() }), Type.Null()], {
  description: "5001: the index lags the node; 5002: no blocks, or the database unreachable",
});
/** `/api/health`'s body (Blockscout's HealthController), healthy or not. */
const HealthBody = Type.Object({
  metadata: Type.Object({
    blocks: Type.Object({
      healthy: Type.Boolean(),
      latest_block: Type.Object({
        db: Latest,
        cache: Latest,
        node: Type.Object({ number: Type.String({ description: '"" when the node did not answer' }) }),
      }),
      error: Type.Optional(HealthError),
    }),
  }),
  healthy: Type.Boolean(),
  error: HealthError,
});
/** A plain-text answer, as a response schema of its own content type. */
const plain = (description: string, schema: TSchema = Type.String()) => ({
  description,
  content: { "text/plain": { schema } },
});

const text = (reply: FastifyReply, status: number, body: string) =>
  reply.code(status).type("text/plain; charset=utf-8").send(body);

/**
 * Blockscout's `/api/health` (its JSON, 500 when unhealthy), `/api/health/liveness` (always "OK") and
 * `/api/health/readiness` ("OK"; unlike Blockscout, 503 with the reason when the index lags more than the
 * configured number of blocks or the database is unreachable, so a load balancer's probe means something).
 */
export const apiHealthRoutes: FastifyPluginAsync<{
  db: Db;
  sources: HealthSources;
  maxLagBlocks: number;
}> = async (app, { db, sources, maxLagBlocks }) => {
  // The response schemas document the answers; they never filter them.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  const health = {
    tags: ["health"],
    summary: "Block indexing health, as Blockscout judges it",
    response: {
      200: { ...HealthBody, description: "Healthy" },
      500: { ...HealthBody, description: "Unhealthy: the reason in `error`" },
    },
  };
  app.get("/api/health", { schema: health }, async (_req, reply) => {
    const s = await indexStatus(db, sources, maxLagBlocks);
    const latest = { db: s.db, cache: s.db, node: s.node };
    const blocks = s.error
      ? { healthy: s.healthy, latest_block: latest, error: s.error }
      : { healthy: true, latest_block: latest };
    return reply
      .code(s.healthy ? 200 : 500)
      .type("application/json; charset=utf-8")
      .serializer((b: unknown) => JSON.stringify(b))
      .send({ metadata: { blocks }, healthy: s.healthy, error: s.error });
  });
  const liveness = {
    tags: ["health"],
    summary: "The process answers",
    response: { 200: plain("Always OK", Type.Literal("OK")) },
  };
  app.get("/api/health/liveness", { schema: liveness }, async (_req, reply) => text(reply, 200, "OK"));
  const readiness = {
    tags: ["health"],
    summary: "Ready for traffic: the index within the allowed lag and the database reachable",
    response: {
      200: plain("Ready", Type.Literal("OK")),
      503: plain("Not ready: the reason (the lag, or the database unreachable)"),
    },
  };
  app.get("/api/health/readiness", { schema: readiness }, async (_req, reply) => {
    const s = await indexStatus(db, sources, maxLagBlocks);
    return s.healthy ? text(reply, 200, "OK") : text(reply, 503, s.error?.message ?? "Not ready");
  });
};
