import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from "@fastify/rate-limit";
import type { Queryable } from "../db/db.js";

/** One in this many counts also deletes rows whose window ended an hour ago (the table holds active clients). */
const SWEEP_EVERY = 1000;

/**
 * @fastify/rate-limit's store on PostgreSQL (migration 160's unlogged `api_rate_limits`): one upsert per counted
 * request, so every `serve` process of a database shares each client's count. Fixed windows, as the plugin's own
 * stores: the first request of a key starts its window, the count resets when it ends. A client already over its
 * limit never reaches the store until its window ends: rate-limits.ts answers it from memory first.
 */
export function postgresRateLimitStore(db: Queryable): FastifyRateLimitStoreCtor {
  let counted = 0;
  class PostgresStore implements FastifyRateLimitStore {
    incr(
      key: string,
      cb: (error: Error | null, result?: { current: number; ttl: number }) => void,
      timeWindow: number,
    ): void {
      db.query<{ hits: number; ttl: number }>(
        `insert into api_rate_limits as r (key, hits, reset_at)
         values ($1, 1, clock_timestamp() + $2 * interval '1 millisecond')
         on conflict (key) do update set
           hits = case when r.reset_at <= clock_timestamp() then 1 else r.hits + 1 end,
           reset_at = case when r.reset_at <= clock_timestamp() then excluded.reset_at else r.reset_at end
         returning hits, greatest(0, ceil(extract(epoch from r.reset_at - clock_timestamp()) * 1000))::int4 as ttl`,
        [key, timeWindow],
      ).then(
        ([row]) => {
          if (++counted % SWEEP_EVERY === 0)
            void db
              .query("delete from api_rate_limits where reset_at < now() - interval '1 hour'")
              .catch(() => {});
          cb(null, { current: row?.hits ?? 1, ttl: row?.ttl ?? timeWindow });
        },
        (e: unknown) => cb(e instanceof Error ? e : new Error(String(e))),
      );
    }
    child(): FastifyRateLimitStore {
      return new PostgresStore();
    }
  }
  return PostgresStore;
}
