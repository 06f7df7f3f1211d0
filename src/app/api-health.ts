import type { FastifyPluginAsync, FastifyReply } from "fastify";
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
  let row: { number: string; timestamp: Date } | undefined;
  try {
    [row] = await within(
      db.query<{ number: string; timestamp: Date }>(
        `select b.number, b.timestamp from indexer_state s join blocks b on b.number = s.last_block where s.id = 1`,
      ),
      2000,
    );
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
  app.get("/api/health", { schema: { tags: ["health"] } }, async (_req, reply) => {
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
  app.get("/api/health/liveness", { schema: { tags: ["health"] } }, async (_req, reply) =>
    text(reply, 200, "OK"),
  );
  app.get("/api/health/readiness", { schema: { tags: ["health"] } }, async (_req, reply) => {
    const s = await indexStatus(db, sources, maxLagBlocks);
    return s.healthy ? text(reply, 200, "OK") : text(reply, 503, s.error?.message ?? "Not ready");
  });
};
